/**
 * One page of reviews → the chunk a query keeps, for sources that page by offset: `cutoff` (oldest
 * Unix second kept, on a newest-first order) ends paging at the first older review, `limit` cuts the
 * page, and every kept record gets the decision 23 cursor that continues right after it. The cursor
 * names the offset and the site's order it belongs to (`{o, s}`, see `cursor.ts`).
 *
 * @example
 *   const c = reviewChunk({ records, offset: 0, got: 0, limit: 15, hasMore: true, sort: 'DATE_DESC' });
 *   c.kept.length; c.cursor; c.follow // follow: fetch the page at c.nextOffset
 */
import { decodeCursor, encodeCursor } from './cursor.ts';
import { SourceError } from './errors.ts';

export interface OffsetCursor {
  offset: number;
  /** The site's sort the offset belongs to. */
  sort: string;
}

export const offsetCursor = (c: OffsetCursor): string => encodeCursor({ o: c.offset, s: c.sort });

/** The offset cursor a token carries, or null when it is not one. */
export function readOffsetCursor(token: unknown): OffsetCursor | null {
  const v = decodeCursor(token);
  return v && Number.isSafeInteger(v.o) && (v.o as number) >= 0 && typeof v.s === 'string' ? { offset: v.o as number, sort: v.s } : null;
}

/**
 * Where a query starts: 0 without a cursor, else the offset it names. A token that is not a cursor,
 * or one made for another order, is `invalid_query` (resuming it would skip or repeat reviews).
 * @example startOffset(undefined, 'DATE_DESC') // 0
 */
export function startOffset(cursor: string | undefined, sort: string): number {
  if (!cursor) return 0;
  const c = readOffsetCursor(cursor);
  if (!c) throw new SourceError('invalid_query', `cursor "${cursor.slice(0, 60)}" is not a next_page_cursor of this endpoint`);
  if (c.sort !== sort) throw new SourceError('invalid_query', `cursor was made for sort ${c.sort}, this query sorts by ${sort}`);
  return c.offset;
}

export interface ChunkInput<R> {
  /** This page's records, in the site's order. */
  records: R[];
  /** Offset of the page's first record. */
  offset: number;
  /** Records the query kept before this page. */
  got: number;
  limit: number;
  /** Unix seconds: reviews older than this end the query (the order is newest first). */
  cutoff?: number | null;
  /** The site says more reviews follow this page. */
  hasMore: boolean;
  /** The site's sort, carried in the cursor. */
  sort: string;
}

export interface Chunk<R> {
  kept: Array<R & { next_page_cursor: string | null }>;
  /** Continues after the kept records; null when nothing is left (or the cutoff was reached). */
  cursor: string | null;
  /** Fetch the page at `nextOffset` next. */
  follow: boolean;
  nextOffset: number;
}

export function reviewChunk<R extends { review_timestamp: number | null }>(c: ChunkInput<R>): Chunk<R> {
  let list = c.records;
  let cutoffHit = false;
  if (c.cutoff) {
    const i = list.findIndex((r) => r.review_timestamp !== null && r.review_timestamp < c.cutoff!);
    if (i >= 0) {
      list = list.slice(0, i);
      cutoffHit = true;
    }
  }
  const room = Math.max(0, c.limit - c.got);
  const kept = list.slice(0, room);
  const cut = kept.length < list.length;
  const nextOffset = c.offset + (cut ? kept.length : c.records.length);
  // An empty page that claims more would loop: it ends the query.
  const more = !cutoffHit && c.records.length > 0 && (cut || c.hasMore);
  const cursor = more ? offsetCursor({ offset: nextOffset, sort: c.sort }) : null;
  return {
    kept: kept.map((r) => ({ ...r, next_page_cursor: cursor })),
    cursor,
    follow: more && !cut && c.got + kept.length < c.limit,
    nextOffset,
  };
}
