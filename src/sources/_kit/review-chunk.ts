/**
 * One page of reviews → what a query keeps of it, for sources that page through a review feed:
 * `cutoff` (oldest Unix second kept, on a newest-first order) drops older reviews and ends paging at
 * the first one. `limit` and `next_page_cursor` are the runner's (src/engine/steps.ts): it cuts the
 * last chunk and signs the steps still to run, so adapters keep emitting the next page's step and
 * set `next_page_cursor: null` (the value for a record no page follows).
 *
 * @example
 *   const c = reviewChunk({ records, cutoff: 1706918400, hasMore: true });
 *   c.kept; c.follow // follow: fetch the next page
 */
import type { PageTally } from './tally.ts';

export interface ChunkInput<R> {
  /** This page's records, in the site's order. */
  records: R[];
  /** Unix seconds: reviews older than this end the query (the order is newest first). */
  cutoff?: number | null;
  /** The site says more reviews follow this page. */
  hasMore: boolean;
}

export interface Chunk<R> {
  kept: Array<R & { next_page_cursor: string | null }>;
  /** Fetch the next page. */
  follow: boolean;
  /** The query's cutoff ended the list here (its own bound, never a shortfall). */
  cutoffHit: boolean;
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
  return {
    kept: list.map((r) => ({ ...r, next_page_cursor: null })),
    // An empty page that claims more would loop: it ends the query.
    follow: !cutoffHit && c.records.length > 0 && c.hasMore,
    cutoffHit,
  };
}

/**
 * What one page of such a feed says to the paging count check (./tally.ts): `read` reviews of the
 * list `key`, of the `stated` the answer says exist; the list ends where paging stops, on the
 * query's cutoff (`enough`) or because the site gave no more (`end`).
 *
 * @example chunkTally('biz-1', 40, 20, reviewChunk({ records, hasMore: true })) // { key: 'biz-1', stated: 40, read: 20 }
 */
export function chunkTally(key: string, stated: number | null, read: number, c: Pick<Chunk<unknown>, 'follow' | 'cutoffHit'>): PageTally {
  return { key, read, ...(stated !== null && stated >= 0 ? { stated } : {}), ...(c.follow ? {} : { end: c.cutoffHit ? 'enough' as const : 'end' as const }) };
}
