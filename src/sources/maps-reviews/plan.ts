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
import { placeStep } from '../_maps/place-step.ts';
import { classifyQuery } from '../_maps/query.ts';
import { MAX_LIMIT, searchSettings, type SearchSettings } from '../_maps/params.ts';
import { firstSearchStep } from '../_maps/search-step.ts';
import type { PlaceSummary, ReviewSort, ReviewsParams } from './record.ts';
import { DIALOG_TOKEN_PREFIX, dialogPageUrl } from './dialog.ts';

export const PAGE_SIZE = 20;
export const SORT_CODE: Record<ReviewSort, number> = { most_relevant: 1, newest: 2, highest_rating: 3, lowest_rating: 4 };

export const DEFAULT_REVIEWS_LIMIT = 100;

export function reviewsLimitOf(p: ReviewsParams): number {
  return p.reviewsLimit === undefined || p.reviewsLimit === null ? DEFAULT_REVIEWS_LIMIT : p.reviewsLimit;
}

export function pageSizeFor(p: ReviewsParams, got: number, own?: number): number {
  const limit = own ?? reviewsLimitOf(p);
  // Ask for no more than still wanted, so the page token after the last kept review is exact.
  if (limit > 0 && !p.ignoreEmpty && !p.cutoff && p.cutoffRating === undefined) return Math.max(1, Math.min(PAGE_SIZE, limit - got));
  return PAGE_SIZE;
}

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
  /** This place's own `cutoff` (a caller that knows its newest review) and `reviewsLimit`, over the request's. */
  cutoff?: number;
  limit?: number;
  /** The place as the caller already knows it: page 0 emits it, no place page was fetched. */
  place?: PlaceSummary;
  /** How many reviews the place says it has (its page or listing): what paging is checked against
   *  (src/engine/tally.ts). Absent when unknown or when paging resumes from a given token. */
  stated?: number;
}

/**
 * A request parameter clients cannot set (the monitor scheduler does, src/monitors/signal.ts): per
 * query, the place as a fresh listing showed it (so no place page is fetched: the first step is its
 * reviews page) and the time of its newest review already seen (reviews older are not read).
 */
export const KNOWN_PLACES = '_knownPlaces';
export interface KnownPlace { place?: PlaceSummary; cutoff?: number; limit?: number }

/** What the caller knows of this query's place, if anything. */
export function knownPlace(ctx: QueryContext<ReviewsParams>): KnownPlace | null {
  const all = (ctx.params as Record<string, unknown> | undefined)?.[KNOWN_PLACES];
  const k = all && typeof all === 'object' ? (all as Record<string, unknown>)[ctx.query] : undefined;
  if (!k || typeof k !== 'object') return null;
  const { place, cutoff, limit } = k as KnownPlace;
  const count = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined);
  return {
    place: place && typeof place === 'object' && typeof place.engine_id === 'string' ? place : undefined,
    cutoff: count(cutoff),
    limit: count(limit),
  };
}

/** @example reviewsStep('0x1:0x2', null, { key: '0x1:0x2', engineId: '0x1:0x2', token: null, got: 0, page: 0 }, {}).kind // 'reviews-page' */
export function reviewsStep(engineId: string, token: string | null, state: ReviewsPageState, p: ReviewsParams, pageSize = PAGE_SIZE): Step {
  return {
    kind: 'reviews-page',
    url: reviewsPageUrl(engineId, { sort: effectiveSort(p), token, language: p.language, region: p.region, pageSize }),
    expect: 'xssi-json',
    // Signed out, the RPC answers 403 since 2026-02 (the limited view): the parser says so.
    answers: [403],
    state: { ...state },
  };
}

/** Which route reads a place's reviews (`reviewsRoute`, docs/sources-maps-2026.md). */
export type ReviewsRoute = 'auto' | 'map' | 'dialog';
export function routeOf(p: ReviewsParams): ReviewsRoute {
  const r = (p as { reviewsRoute?: unknown }).reviewsRoute;
  return r === 'map' || r === 'dialog' ? r : 'auto';
}

/** @example dialogStep('0x1:0x2', null, { key: '0x1:0x2', engineId: '0x1:0x2', token: null, got: 0, page: 0 }, {}).kind // 'reviews-dialog' */
export function dialogStep(engineId: string, token: string | null, state: ReviewsPageState, p: ReviewsParams): Step {
  return {
    kind: 'reviews-dialog',
    url: dialogPageUrl(engineId, { sort: effectiveSort(p), token, language: p.language, region: p.region }),
    expect: 'xssi-json',
    state: { ...state },
  };
}

/**
 * A list's first reviews step: the review dialog with `reviewsRoute=dialog` or a dialog page token
 * (`lastPaginationId` starting `dlg:`), else the map product's reviews RPC (signed in where the
 * operator gave cookies; `auto` moves to the dialog when it meets the limited view).
 */
export function firstReviewsStep(engineId: string, token: string | null, state: ReviewsPageState, p: ReviewsParams, pageSize: number): Step {
  if (token?.startsWith(DIALOG_TOKEN_PREFIX)) {
    const own = token.slice(DIALOG_TOKEN_PREFIX.length);
    return dialogStep(engineId, own, { ...state, token: own }, p);
  }
  if (routeOf(p) === 'dialog') return dialogStep(engineId, token, state, p);
  return reviewsStep(engineId, token, state, p, pageSize);
}

/**
 * Query → first step: a place step for a place id, CID, feature id or place URL (maps-place),
 * a short-link `resolve` step, or the first map search page for a phrase (maps-search).
 * Throws `SourceError('invalid_query')` for a query none of these accept.
 * @example plan({ query: '0x14e732fd76f0d90d:0xe5415928d6702b47', params: {} })[0].url
 *   // 'https://www.google.com/maps?cid=16519582940102929223&hl=en'
 */
export function plan(ctx: QueryContext<ReviewsParams>): Step[] {
  const p = ctx.params ?? {};
  const form = classifyQuery(ctx.query);
  if (form.form === 'invalid') throw new SourceError('invalid_query', form.reason);
  if (form.form === 'phrase') return [firstSearchStep(form.q, settingsOf(p), form.camera ?? null)];
  const known = knownPlace(ctx);
  // A place a fresh listing showed starts at its reviews: its place page would add nothing (a place
  // without reviews costs the one empty reviews page instead of the place page).
  if (known?.place?.engine_id) {
    const { engine_id: engineId } = known.place;
    const token = p.lastPaginationId || null;
    return [firstReviewsStep(engineId, token, { key: engineId, engineId, got: 0, page: 0, token, cutoff: known.cutoff, limit: known.limit, place: known.place, stated: statedOf(known.place, token) }, p, pageSizeFor(p, 0, known.limit))];
  }
  return [placeStep(form, localeOf(p))];
}

/** The place's own review count, the paging check's reference; none when paging resumes from a token
 *  (the reviews before it are not read again). */
export function statedOf(place: Pick<PlaceSummary, 'reviews'> | undefined, token: string | null): number | undefined {
  const n = place?.reviews;
  return token === null && typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined;
}

/** maps-search settings for the place search of a reviews query (`limit` places). */
export function settingsOf(p: ReviewsParams): SearchSettings {
  return searchSettings({ limit: Math.min(Math.max(1, p.limit ?? 1), MAX_LIMIT), language: p.language, region: p.region });
}

export function localeOf(p: ReviewsParams): { language: string; region: string | null } {
  return { language: p.language || 'en', region: p.region ? p.region.toUpperCase() : null };
}
