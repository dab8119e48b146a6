/**
 * One page of reviews → the chunk a query keeps, for sources that page by offset: `cutoff` (oldest
 * Unix second kept, on a newest-first order) ends paging at the first older review, `limit` cuts the
 * page, and every kept record gets the decision 23 cursor that continues right after it.
 *
 * @example
 *   const c = reviewChunk({ records, offset: 0, got: 0, limit: 15, hasMore: true, sort: 'DATE_DESC' });
 *   c.kept.length; c.cursor; c.follow // follow: fetch the page at c.nextOffset
 */
import { encodeOffsetCursor } from './offset-cursor.ts';

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
  const cursor = more ? encodeOffsetCursor({ offset: nextOffset, sort: c.sort }) : null;
  return {
    kept: kept.map((r) => ({ ...r, next_page_cursor: cursor })),
    cursor,
    follow: more && !cut && c.got + kept.length < c.limit,
    nextOffset,
  };
}
