/**
 * Dates as records carry them (decision 24): Unix seconds in `<prefix>_timestamp` and ISO-8601 UTC
 * without milliseconds in `<prefix>_datetime_utc`; null for a value that is absent or not a date.
 *
 * @example timePair('2024-02-23T15:10:29Z') // { timestamp: 1708701029, datetime_utc: '2024-02-23T15:10:29Z' }
 */
export interface TimePair {
  timestamp: number | null;
  datetime_utc: string | null;
}

const NONE: TimePair = { timestamp: null, datetime_utc: null };

/** An ISO-8601 string (any offset) or Unix seconds → both forms; anything else → nulls. */
export function timePair(v: unknown): TimePair {
  let ms: number;
  if (typeof v === 'number' && Number.isFinite(v)) ms = v * 1000;
  else if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v)) ms = Date.parse(v);
  else return NONE;
  if (!Number.isFinite(ms)) return NONE;
  const sec = Math.floor(ms / 1000);
  return { timestamp: sec, datetime_utc: new Date(sec * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z') };
}
