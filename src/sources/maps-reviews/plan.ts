/**
 * Steps of `/maps/reviews`: find the place (a place page for an id, a map search for a phrase),
 * then page through the `/maps/rpc/listugcposts` reviews RPC.
 *
 * The RPC's `pb` argument (facts from public scrapers, see docs/sources-maps-more.md):
 *   !1m6!1s<feature id>!6m4!4m1!1e1!4m1!1e3   which place
 *   !2m2!1i<page size>!2s<page token>          paging; the token is `[1]` of the previous page
 *   !5m2!1s<session id>!7e81                   a client session id, the same for every page
 *   !8m9!2b1!3b1!5b1!7b1!12m4!1b1!2b1!4m1!1e1  which parts of a review to include
 *   !11m0!13m1!1e<sort>                        1 relevant, 2 newest, 3 highest, 4 lowest rating
 */
import { createHash } from 'node:crypto';
import type { QueryContext, Step } from '../_kit/adapter.ts';
import { SourceError } from '../_kit/errors.ts';
import { parsePlaceRef, type PlaceRef } from './ids.ts';
import type { ReviewSort, ReviewsParams } from './record.ts';

export const PAGE_SIZE = 20;
export const SORT_CODE: Record<ReviewSort, number> = { most_relevant: 1, newest: 2, highest_rating: 3, lowest_rating: 4 };

/** `cutoff` only makes sense on a date order, so it forces `newest`. */
export function effectiveSort(p: ReviewsParams): ReviewSort {
  if (p.cutoff) return 'newest';
  return p.sort ?? 'most_relevant';
}

function langParams(p: { language?: string; region?: string }): string {
  const hl = encodeURIComponent(p.language || 'en');
  return p.region ? `hl=${hl}&gl=${encodeURIComponent(p.region.toLowerCase())}` : `hl=${hl}`;
}

/** A stable per-place session id: the RPC wants one, and a pure planner may not draw randomness. */
export function sessionIdFor(engineId: string): string {
  return createHash('sha256').update(engineId).digest('base64url').slice(0, 21);
}

/**
 * URL of one reviews page.
 * @example reviewsPageUrl('0x1:0x2', { sort: 'newest', token: '' })
 *   // 'https://www.google.com/maps/rpc/listugcposts?authuser=0&hl=en&pb=!1m6!1s0x1%3A0x2...!13m1!1e2'
 */
export function reviewsPageUrl(
  engineId: string,
  o: { sort: ReviewSort; token?: string | null; language?: string; region?: string; pageSize?: number },
): string {
  const pb =
    `!1m6!1s${encodeURIComponent(engineId)}!6m4!4m1!1e1!4m1!1e3` +
    `!2m2!1i${o.pageSize ?? PAGE_SIZE}!2s${encodeURIComponent(o.token ?? '')}` +
    `!5m2!1s${sessionIdFor(engineId)}!7e81` +
    `!8m9!2b1!3b1!5b1!7b1!12m4!1b1!2b1!4m1!1e1!11m0` +
    `!13m1!1e${SORT_CODE[o.sort]}`;
  return `https://www.google.com/maps/rpc/listugcposts?authuser=0&${langParams(o)}&pb=${pb}`;
}

/** State a reviews-page step carries to `parse`. */
export interface ReviewsPageState {
  /** Place key (its engine id): joins reviews to their place in `finish`. */
  key: string;
  engineId: string;
  /** The page token this step asks with (null: first page). */
  token: string | null;
  /** Reviews kept so far for this place. */
  got: number;
  page: number;
}

/** @example reviewsStep('0x1:0x2', null, { key: '0x1:0x2', engineId: '0x1:0x2', token: null, got: 0, page: 0 }, {}).kind // 'reviews-page' */
export function reviewsStep(engineId: string, token: string | null, state: ReviewsPageState, p: ReviewsParams, pageSize = PAGE_SIZE): Step {
  return {
    kind: 'reviews-page',
    url: reviewsPageUrl(engineId, { sort: effectiveSort(p), token, language: p.language, region: p.region, pageSize }),
    expect: 'xssi-json',
    state: { ...state },
  };
}

/**
 * The place page for an id. All three answer with the HTML page whose APP_INITIALIZATION_STATE
 * holds the place body (see place.ts).
 * @example placeStep({ kind: 'cid', id: '16519582940102929223' }, {}).url
 *   // 'https://www.google.com/maps?cid=16519582940102929223&hl=en'
 */
export function placeStep(ref: Exclude<PlaceRef, { kind: 'phrase' }>, p: ReviewsParams): Step {
  const lp = langParams(p);
  const url =
    ref.kind === 'engine_id'
      ? `https://www.google.com/maps/place/data=!4m2!3m1!1s${encodeURIComponent(ref.id)}?authuser=0&${lp}`
      : ref.kind === 'place_id'
        ? `https://www.google.com/maps/place/?q=place_id:${encodeURIComponent(ref.id)}&authuser=0&${lp}`
        : `https://www.google.com/maps?cid=${ref.id}&${lp}`;
  return { kind: 'place', url, expect: 'html', state: { ref: ref.kind, id: ref.id } };
}

/**
 * A map search (`tbm=map`) for a phrase: `!7i` is the page size and `!8i` the offset; the
 * remaining flags ask for the business nodes at `[0][1][i][14]`.
 * @example mapSearchUrl('coffee athens', { offset: 20 }) // '...&q=coffee%20athens&pb=!7i20!8i20...'
 */
export function mapSearchUrl(phrase: string, o: { offset?: number; language?: string; region?: string } = {}): string {
  const pb =
    `!7i20!8i${o.offset ?? 0}!10b1!12m22!1m3!18b1!30b1!34e1!2m3!5m1!6e2!20e3!4b0!10b1!12b1!13b1!16b1` +
    `!17m1!3e1!20m3!5e2!6b1!14b1!46m1!1b0!96b1!19m4!2m3!1i360!2i120!4i8`;
  return `https://www.google.com/search?tbm=map&authuser=0&${langParams(o)}&q=${encodeURIComponent(phrase)}&pb=${pb}`;
}

export function searchStep(phrase: string, p: ReviewsParams): Step {
  return { kind: 'search', url: mapSearchUrl(phrase, p), expect: 'xssi-json', state: { offset: 0 } };
}

/**
 * Query → first step. Throws `SourceError('invalid_query')` for an empty query.
 * @example plan({ query: '0x14e732fd76f0d90d:0xe5415928d6702b47', params: {} })[0].kind // 'place'
 */
export function plan(ctx: QueryContext<ReviewsParams>): Step[] {
  const ref = parsePlaceRef(ctx.query);
  if (ref.kind === 'phrase') {
    if (!ref.text) throw new SourceError('invalid_query', 'query is empty');
    return [searchStep(ref.text, ctx.params)];
  }
  return [placeStep(ref, ctx.params)];
}
