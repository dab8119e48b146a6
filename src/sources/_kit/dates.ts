/**
 * Dates as sources write them → Unix seconds, and the `<prefix>_timestamp` /
 * `<prefix>_datetime_utc` pair every record carries for a moment (Unix seconds and ISO-8601 UTC
 * without milliseconds, e.g. `2024-02-03T10:00:00Z`).
 *
 * Accepted: Unix seconds or milliseconds (number or digit string; 12+ digits read as ms), ISO-8601
 * dates and date-times (a date alone, or a date-time without zone, reads as UTC), RFC 2822 / HTTP
 * dates, `Feb 3, 2024`-style English dates, and English relative phrases ("3 days ago",
 * "an hour ago", "yesterday", "last week", "just now", "30+ days ago") given the reference time.
 *
 * @example
 *   toUnix('2024-02-03') // 1706918400
 *   toUnix('3 days ago', 1706918400) // 1706659200
 *   timeFields('review', 1706918400) // { review_timestamp: 1706918400, review_datetime_utc: '2024-02-03T00:00:00Z' }
 */

const UNIT_S: Record<string, number> = {
  second: 1, sec: 1, s: 1,
  minute: 60, min: 60, m: 60,
  hour: 3600, hr: 3600, h: 3600,
  day: 86400, d: 86400,
  week: 604800, wk: 604800, w: 604800,
  month: 2592000, mo: 2592000,
  year: 31536000, yr: 31536000, y: 31536000,
};

/**
 * Unix seconds of an English relative phrase, relative to `now` (Unix s); null when it is not one.
 * @example relativeToUnix('2 weeks ago', 1_000_000_000) // 998790400
 */
export function relativeToUnix(text: string, now: number): number | null {
  const s = text.toLowerCase().replace(/\s+/g, ' ').trim().replace(/^(edited|posted|updated|active) /, '');
  if (/^(just now|just posted|now|today|moments? ago|a moment ago|few seconds ago)$/.test(s)) return now;
  if (s === 'yesterday') return now - 86400;
  const last = /^(?:last|a) (minute|hour|day|week|month|year)$/.exec(s);
  if (last) return now - UNIT_S[last[1]];
  const m = /^(\d+|an?|one|a few|few)\+? ?(seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|wks?|months?|mos?|years?|yrs?|[smhdwy])\.? ago$/.exec(s);
  if (!m) return null;
  const n = /^\d+$/.test(m[1]) ? Number(m[1]) : /few/.test(m[1]) ? 3 : 1;
  const unit = m[2].replace(/s$/, '').replace(/^(sec|min|hr|wk|mo|yr)s?$/, '$1');
  const per = UNIT_S[unit] ?? UNIT_S[m[2]];
  return per === undefined ? null : now - n * per;
}

/**
 * Unix seconds of any date form above; null when the value is none (or `now` is needed but not given).
 * @example toUnix('Sat, 03 Feb 2024 10:00:00 GMT') // 1706954400
 */
export function toUnix(v: unknown, now?: number | null): number | null {
  if (typeof v === 'number') return Number.isFinite(v) && v >= 0 ? Math.floor(v >= 1e11 ? v / 1000 : v) : null;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : Math.floor(v.getTime() / 1000);
  if (typeof v !== 'string') return null;
  const s = v.trim();
  if (!s) return null;
  if (/^\d{9,13}(\.\d+)?$/.test(s)) return toUnix(Number(s));
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) return fromMs(Date.parse(`${s}T00:00:00Z`));
  if (/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(s)) return fromMs(Date.parse(`${s.replace(' ', 'T')}Z`));
  if (/^\d{4}-\d{2}-\d{2}[T ]/.test(s)) return fromMs(Date.parse(s.replace(' ', 'T')));
  if (now !== undefined && now !== null && /\bago$|^(yesterday|today|just|now|moments?|last |a (minute|hour|day|week|month|year)$)/i.test(s.replace(/^(edited|posted|updated|active) /i, ''))) {
    return relativeToUnix(s, now);
  }
  // RFC 2822 / HTTP dates and English month-name dates; a missing zone reads as UTC.
  if (/[a-z]{3}/i.test(s) && /\d{4}/.test(s)) {
    const zoned = /(GMT|UTC|Z|[+-]\d{4}|[+-]\d{2}:\d{2})\s*$/i.test(s);
    return fromMs(Date.parse(zoned ? s : `${s} UTC`));
  }
  return null;
}

function fromMs(ms: number): number | null {
  return Number.isNaN(ms) ? null : Math.floor(ms / 1000);
}

/**
 * ISO-8601 UTC text of Unix seconds, without milliseconds; null for null or out of range.
 * @example isoUtc(0) // '1970-01-01T00:00:00Z'
 */
export function isoUtc(sec: number | null | undefined): string | null {
  if (sec === null || sec === undefined || !Number.isFinite(sec)) return null;
  const d = new Date(sec * 1000);
  if (Number.isNaN(d.getTime())) return null;
  const iso = d.toISOString();
  // 'YYYY-MM-DDTHH:MM:SS.sssZ' (24 chars) loses its milliseconds by a slice: a third of the cost of a
  // regex replace, which per-record callers (thousands of comments a page) notice.
  return iso.length === 24 ? `${iso.slice(0, 19)}Z` : iso.replace(/\.\d{3}Z$/, 'Z');
}

/** The record fields of one moment. */
export type TimeFields<P extends string> = { [K in `${P}_timestamp`]: number | null } & { [K in `${P}_datetime_utc`]: string | null };

/**
 * `{ <prefix>_timestamp, <prefix>_datetime_utc }` of any date form (both null when unreadable).
 * @example timeFields('posted', '2024-02-03T10:00:00+02:00') // { posted_timestamp: 1706947200, posted_datetime_utc: '2024-02-03T08:00:00Z' }
 */
export function timeFields<P extends string>(prefix: P, v: unknown, now?: number | null): TimeFields<P> {
  const ts = toUnix(v, now);
  return { [`${prefix}_timestamp`]: ts, [`${prefix}_datetime_utc`]: isoUtc(ts) } as TimeFields<P>;
}

/**
 * Reference time of a response (Unix s) from its `Date` header, for relative dates; null when absent.
 * @example responseTime({ date: 'Tue, 02 Jun 2026 10:00:00 GMT' }) // 1780394400
 */
export function responseTime(headers: Record<string, string> | undefined): number | null {
  const h = headers ?? {};
  const v = h.date ?? Object.entries(h).find(([k]) => k.toLowerCase() === 'date')?.[1];
  return v ? toUnix(v) : null;
}
