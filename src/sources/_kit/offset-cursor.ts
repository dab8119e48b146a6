/**
 * Decision 23 cursors for sources that page by offset: an opaque, URL-safe token naming where the
 * next chunk starts and the order it was made for, so a resumed query continues exactly there.
 *
 * @example
 *   const c = encodeOffsetCursor({ offset: 20, sort: 'DATE_DESC' }); // 'eyJvIjoyMCwicyI6IkRBVEVfREVTQyJ9'
 *   decodeOffsetCursor(c) // { offset: 20, sort: 'DATE_DESC' }
 */
export interface OffsetCursor {
  offset: number;
  /** The site's sort the offset belongs to. */
  sort: string;
}

export function encodeOffsetCursor(c: OffsetCursor): string {
  return Buffer.from(JSON.stringify({ o: c.offset, s: c.sort })).toString('base64url');
}

/** The cursor, or a message saying why the token is not one. */
export function decodeOffsetCursor(token: string): OffsetCursor | { error: string } {
  try {
    const v = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (Number.isSafeInteger(v?.o) && v.o >= 0 && typeof v?.s === 'string') return { offset: v.o, sort: v.s };
  } catch {
    // fall through
  }
  return { error: `cursor "${token.slice(0, 60)}" is not a next_page_cursor of this endpoint` };
}
