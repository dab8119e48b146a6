/**
 * The one category vocabulary of trawl: what a place's types are and how two category names compare.
 * The business database stores a place's types by `categoryKey` (business_types.type_k) and its
 * `types` filter compares by it; a task's `exactMatch` keeps the places one of whose types has the
 * key of the category asked, so `exactMatch` keeps what POST /businesses `types` would find.
 *
 * @example
 *   placeTypes({ type: 'Dentist', subtypes: 'Dentist, Dental clinic' }) // ['Dentist', 'Dental clinic']
 *   categoryKey(' Dental Clinic ') // 'dental clinic'
 */
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/** A category name as compared: NFC, lower case, outer spaces trimmed; null for none. */
export const categoryKey = (s: string | null | undefined): string | null => (s == null || s === '' ? null : s.normalize('NFC').toLowerCase().trim() || null);

/** A map place's types: its main type, then its subtypes (`a, b`), each once, as written. */
export function placeTypes(p: Record<string, unknown>): string[] {
  const all = [text(p.type), ...(text(p.subtypes)?.split(',') ?? [])].map((t) => t?.trim()).filter((t): t is string => !!t);
  return [...new Set(all)];
}
