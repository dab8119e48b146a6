/**
 * Interim helpers both sources of this family use until the source kit of issue 9 lands them
 * (`_kit/cursor.ts`, `_kit/dates.ts`); then this file goes and the imports switch.
 */

/**
 * An opaque, URL-safe cursor of a small JSON object.
 * @example decodeCursor(encodeCursor({ c: 20, s: 3 })) // { c: 20, s: 3 }
 */
export function encodeCursor(o: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(o)).toString('base64url');
}

/** The object of a cursor, or null when it is not one of ours. */
export function decodeCursor(s: string): Record<string, unknown> | null {
  try {
    const o = JSON.parse(Buffer.from(s, 'base64url').toString('utf8'));
    return o && typeof o === 'object' && !Array.isArray(o) ? (o as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * `<prefix>_timestamp` (Unix s) and `<prefix>_datetime_utc` (ISO 8601) of Unix seconds; nulls for anything else.
 * @example timeFields('created', 1770281693) // { created_timestamp: 1770281693, created_datetime_utc: '2026-02-05T08:54:53.000Z' }
 */
export function timeFields<P extends string>(prefix: P, v: unknown): Record<`${P}_timestamp`, number | null> & Record<`${P}_datetime_utc`, string | null> {
  const ok = typeof v === 'number' && Number.isFinite(v) && v > 0 && v < 1e11;
  const ts = ok ? Math.floor(v) : null;
  return { [`${prefix}_timestamp`]: ts, [`${prefix}_datetime_utc`]: ts === null ? null : new Date(ts * 1000).toISOString() } as never;
}
