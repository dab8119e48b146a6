/**
 * What this process knows is wrong with its surroundings, though it still serves (a DNS resolver that
 * calls every name NXDOMAIN): shown in `/health` as `notes` and logged once when it starts and ends,
 * so an operator learns why answers say UNKNOWN without reading every record.
 *
 * @example setHealthNote('dns', 'DNS resolver answers NXDOMAIN for every name'); healthNotes() // { dns: '...' }
 */
type Listener = (key: string, message: string | null) => void;

const notes = new Map<string, string>();
const listeners = new Set<Listener>();

/** Sets (a message) or clears (null) the note under `key`; listeners hear only changes. */
export function setHealthNote(key: string, message: string | null): void {
  if ((notes.get(key) ?? null) === message) return;
  if (message === null) notes.delete(key); else notes.set(key, message);
  for (const l of listeners) l(key, message);
}

/** The current notes, or undefined when there is none. */
export function healthNotes(): Record<string, string> | undefined {
  return notes.size ? Object.fromEntries(notes) : undefined;
}

/** Hears every change of a note; returns the function that stops it. */
export function onHealthNote(l: Listener): () => void {
  listeners.add(l);
  return () => { listeners.delete(l); };
}
