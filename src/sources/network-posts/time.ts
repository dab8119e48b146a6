/**
 * Post times. The site's activity, share and ugcPost ids are time-ordered: the top 41 bits of the
 * 64-bit id are the creation time in Unix milliseconds. The page itself shows only a relative age
 * ("1w"), so the id is where the exact time comes from.
 */
import { timeFields } from '../_kit/dates.ts';

const MIN_MS = Date.UTC(2003, 0, 1);

/**
 * Unix seconds an id was created at, or null when the id does not carry a plausible time.
 * @example timeOfActivityId('7265743553410330624') // 1732288254
 */
export function timeOfActivityId(id: string | null): number | null {
  if (!id || !/^\d{15,20}$/.test(id)) return null;
  const ms = Number(BigInt(id) >> 22n);
  return ms >= MIN_MS && ms <= Date.UTC(2100, 0, 1) ? Math.floor(ms / 1000) : null;
}

/** `posted_timestamp` and `posted_datetime_utc` of a post id. */
export function postedFields(id: string | null) {
  return timeFields('posted', timeOfActivityId(id));
}

/**
 * A count as the page prints it: "1,284", "1.2K", "3M", "56 Comments".
 * @example countOf('1.2K reactions') // 1200
 */
export function countOf(text: string | null | undefined): number | null {
  if (!text) return null;
  const m = /(\d[\d,.\u00a0\u202f ]*)\s*([KkMm])?/.exec(text);
  if (!m) return null;
  const mult = m[2] ? (m[2].toLowerCase() === 'k' ? 1e3 : 1e6) : 1;
  const digits = m[1].replace(/[\s\u00a0\u202f]/g, '');
  const n = mult === 1 ? Number(digits.replace(/[,.]/g, '')) : Number(digits.replace(/,/g, '.'));
  return Number.isFinite(n) ? Math.round(n * mult) : null;
}
