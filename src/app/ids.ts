/**
 * Ids of decision 11: requests are UUID v4; tasks are a UTC timestamp `YYYYMMDDHHMMSS` plus 4 hex
 * characters, so task ids sort by creation time.
 *
 * @example newTaskId(Date.UTC(2026, 0, 2, 3, 4, 5)) // '20260102030405a1b2'
 */
import { randomBytes, randomUUID } from 'node:crypto';

export const newRequestId = () => randomUUID();

let lastSecond = '';
let seq = 0;

/** Within one second the 4 hex characters count up from a random start, so ids keep creation order. */
export function newTaskId(now: number): string {
  const d = new Date(now);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const second = `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}`;
  if (second === lastSecond && seq < 0xffff) seq++;
  else { lastSecond = second; seq = randomBytes(2).readUInt16BE(0) & 0x7fff; }
  return `${second}${seq.toString(16).padStart(4, '0')}`;
}

/** Timestamp without zone, ISO 8601 style with microseconds (interface 2.7). */
export function taskTime(ms: number): string {
  return new Date(ms).toISOString().replace('Z', '').replace(/\.(\d{3})$/, '.$1000');
}
