/**
 * Decision 23 cursors for sources that page by offset: an opaque, URL-safe token naming where the
 * next chunk starts and the order it was made for, so a resumed query continues exactly there.
 *
 * @example
 *   const c = encodeOffsetCursor({ offset: 20, sort: 'DATE_DESC' }); // 'eyJvIjoyMCwicyI6IkRBVEVfREVTQyJ9'
 *   decodeOffsetCursor(c) // { offset: 20, sort: 'DATE_DESC' }
 */
import { SourceError } from './errors.ts';

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

/**
 * Where a query starts: 0 without a cursor, else the offset it names. A token that is not a cursor,
 * or one made for another order, is `invalid_query` (resuming it would skip or repeat reviews).
 * @example startOffset(undefined, 'DATE_DESC') // 0
 */
export function startOffset(cursor: string | undefined, sort: string): number {
  if (!cursor) return 0;
  const c = decodeOffsetCursor(cursor);
  if ('error' in c) throw new SourceError('invalid_query', c.error);
  if (c.sort !== sort) throw new SourceError('invalid_query', `cursor was made for sort ${c.sort}, this query sorts by ${sort}`);
  return c.offset;
}
