/**
 * `parse` of `/rentals-reviews`: the listing page → the first reviews step (API key and hash from
 * the page); a reviews answer → its reviews (limit, cutoff, decision 23 cursor) and the next page.
 *
 * A stale persisted-query hash is answered with HTTP 200 and a validation error (`data: null`,
 * `errors[].extensions.classification: ValidationError`), an Apollo `PersistedQueryNotFound`, or
 * HTTP 400 `{"error_type": "persisted_query_not_found"}`: it is recognised, the listing page is read
 * again once for a fresh hash, and a second refusal fails the query as `layout_changed`. It is never
 * served as "no reviews".
 */
import type { FetchedResponse, ParseResult, QueryContext, Step } from '../_kit/adapter.ts';
import { SourceError } from '../_kit/errors.ts';
import { GraphqlError, readGraphql } from '../_kit/graphql.ts';
import { chunkTally, reviewChunk } from '../_kit/review-chunk.ts';
import { readListingPage } from './page.ts';
import { KNOWN_API_KEY, KNOWN_HASH, OPERATION, PAGE_SIZE, listingStep, reviewsStep, type RentalsState } from './plan.ts';
import type { RentalsParams, RentalsReview } from './record.ts';
import { REVIEW_ID, reviewOf, type ReviewContext } from './review.ts';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : null);

/** The REST-style refusal of an unknown hash (HTTP 400 `{"error_type": "persisted_query_not_found"}`). */
function isRestStale(json: unknown): boolean {
  const o = obj(json);
  return !!o && typeof o.error_type === 'string' && /persisted_?query_?not_?found/i.test(o.error_type);
}

/**
 * The `data` of a reviews answer, or `'stale'` when the site refused the persisted-query hash: an
 * Apollo `PersistedQueryNotFound`, the 200 + `ValidationError` the site answered in 2026-09, or the
 * 400 form. Other errors throw typed (kit `GraphqlError`).
 */
export function reviewsData(json: unknown): Obj | 'stale' {
  if (isRestStale(json)) return 'stale';
  try {
    return readGraphql<Obj>(json);
  } catch (e) {
    if (e instanceof GraphqlError && e.type === 'stale_request') return 'stale';
    throw e;
  }
}

/** What one reviews answer holds. */
export interface ReviewsPage {
  nodes: Obj[];
  /** `metadata.reviewsCount`, when given. */
  total: number | null;
}

/** The answer has the reviews operation's list (`presentation.stayProductDetailPage.reviews.reviews`). */
export function hasReviewsList(data: Obj): boolean {
  return Array.isArray(obj(obj(obj(data.presentation)?.stayProductDetailPage)?.reviews)?.reviews);
}

/** The `data` of a reviews answer → its page; a missing branch or an entry that is no review → typed `SourceError`. */
export function readReviews(data: Obj): ReviewsPage {
  const presentation = obj(data.presentation);
  if (!presentation || !('stayProductDetailPage' in presentation)) throw new SourceError('layout_changed', `${OPERATION}: the answer has no presentation.stayProductDetailPage`);
  const pdp = obj(presentation.stayProductDetailPage);
  if (!pdp || pdp.reviews === null) throw new SourceError('not_found', `${OPERATION}: the site has no such listing (or it is unlisted)`);
  const reviews = obj(pdp.reviews);
  if (!reviews || !Array.isArray(reviews.reviews)) throw new SourceError('layout_changed', `${OPERATION}: the answer has no reviews list`);
  const count = obj(reviews.metadata)?.reviewsCount;
  const nodes = reviews.reviews.map(obj).filter((n): n is Obj => n !== null);
  // Every review carries its numeric id; an entry without one is no review the parser knows (a
  // block wrapped, a key renamed, an entry of another kind): its fields would be guesses.
  const bad = nodes.findIndex((n) => !REVIEW_ID.test(String(n.id)));
  if (bad >= 0) throw new SourceError('layout_changed', `${OPERATION}: entry ${bad} of the reviews list has no numeric review id`);
  return { nodes, total: typeof count === 'number' ? count : null };
}

function listingPageStep(step: Step, res: FetchedResponse, p: RentalsParams): ParseResult<RentalsReview> {
  const state = step.state as RentalsState;
  const page = readListingPage(res.body);
  if (!page.isAppPage && !page.apiKey) throw new SourceError('layout_changed', `listing page ${res.url} carries no app state and no API key`);
  const hash = [page.hash, KNOWN_HASH].find((h): h is string => !!h && !state.stale.includes(h));
  if (!hash) throw new SourceError('stale_request', `${OPERATION}: the site refused every known persisted-query hash (${state.stale.map((h) => h.slice(0, 8)).join(', ')}) and the listing page names no other`);
  return { records: [], next: [reviewsStep({ ...state, apiKey: page.apiKey ?? KNOWN_API_KEY, hash }, p)] };
}

function reviewsPageStep(step: Step, res: FetchedResponse, ctx: QueryContext<RentalsParams>): ParseResult<RentalsReview> {
  const p = ctx.params ?? {};
  const state = step.state as RentalsState & { apiKey: string; hash: string };
  let json: unknown;
  try {
    json = JSON.parse(res.body);
  } catch {
    throw new SourceError('layout_changed', `${OPERATION}: HTTP ${res.status}, the answer is not JSON (${res.body.slice(0, 80).replace(/\s+/g, ' ')})`);
  }
  const data = reviewsData(json);
  if (data === 'stale') {
    const stale = [...state.stale, state.hash];
    if (state.reread) throw new SourceError('stale_request', `${OPERATION}: persisted-query hash ${state.hash.slice(0, 8)} refused again after re-reading the listing page`);
    return { records: [], next: [listingStep({ ...state, stale, reread: true })] };
  }
  if (res.status !== 200) throw new SourceError('layout_changed', `${OPERATION}: HTTP ${res.status} (${res.body.slice(0, 120).replace(/\s+/g, ' ')})`);
  const page = readReviews(data);
  const rc: ReviewContext = { query: ctx.query, listingId: state.listingId };
  const records = page.nodes.map((n) => reviewOf(n, rc));
  const hasMore = page.total !== null ? state.offset + page.nodes.length < page.total : page.nodes.length >= PAGE_SIZE;
  const c = reviewChunk({ records, cutoff: p.cutoff, hasMore });
  const next = c.follow ? [reviewsStep({ ...state, offset: state.offset + page.nodes.length }, p)] : [];
  return { records: c.kept, next, tallies: [chunkTally(state.listingId, page.total, page.nodes.length, c)] };
}

export function parse(step: Step, res: FetchedResponse, ctx: QueryContext<RentalsParams>): ParseResult<RentalsReview> {
  if (step.kind === 'listing') return listingPageStep(step, res, ctx.params ?? {});
  if (step.kind === 'reviews') return reviewsPageStep(step, res, ctx);
  throw new SourceError('layout_changed', `rentals-reviews: unknown step kind ${step.kind}`);
}
