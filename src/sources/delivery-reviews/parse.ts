/**
 * `parse` of `/delivery-reviews`: a reviews answer → its reviews (cutoff; the runner owns limit and
 * the cursor) and the next page.
 *
 * The answer is read by shape, not by one path: the reviews are the first list of review cards
 * anywhere in `data` (older answers nest them under the store page feed), the store is the object
 * that carries the store's header (`__typename` StoreHeader / Store, or the store's id with a name),
 * and paging is the list's sibling `pageInfo` (`cursor`/`endCursor`, `hasNextPage`) or
 * `nextCursor`/`hasMore`. A store the site does not know (`null` in place of the answer) is
 * `not_found`; an answer without data is a typed `GraphqlError` (rate limit, block, validation);
 * an answer with neither reviews nor a store is `layout_changed`: never "no reviews".
 */
import type { FetchedResponse, ParseResult, QueryContext, Step } from '../_kit/adapter.ts';
import { responseTime } from '../_kit/dates.ts';
import { findValues } from '../_kit/embedded.ts';
import { SourceError } from '../_kit/errors.ts';
import { reviewChunk } from '../_kit/review-chunk.ts';
import { isAdNode, obj, objs, str, type Obj } from '../_kit/values.ts';
import { isStoreHeader, readSiteAnswer, storeOf } from '../_doordash/site.ts';
import { OPERATION, PAGE_SIZE, reviewsStep, type DeliveryState } from './plan.ts';
import type { DeliveryParams, DeliveryReview } from './record.ts';
import { isReviewNode, reviewOf } from './review.ts';

export interface ReviewsPage {
  store: ReturnType<typeof storeOf> | null;
  nodes: Obj[];
  nextCursor: string | null;
  /** The answer says whether more follow (null: it does not say). */
  hasMore: boolean | null;
}

const cardList = (x: unknown): x is unknown[] => Array.isArray(x) && x.length > 0 && x.every(isReviewNode);

/** The object holding a list of review cards, or a `reviews` list (empty, or with entries that do not read). */
const holdsReviews = (v: unknown): v is Obj => {
  const o = obj(v);
  if (!o) return false;
  return Array.isArray(o.reviews) || Object.values(o).some(cardList);
};

/**
 * The cards of a holder's list: entries the site flags as paid placements are left out; an entry
 * that is no review card (a block wrapped, a key renamed) is `layout_changed`, not a review lost.
 */
function cardsOf(holder: Obj): Obj[] {
  const list = Object.values(holder).find(cardList) ?? (holder.reviews as unknown[]);
  const cards = objs(list).filter((n) => !isAdNode(n));
  const bad = cards.findIndex((n) => !isReviewNode(n));
  if (bad >= 0) throw new SourceError('layout_changed', `${OPERATION}: entry ${bad} of the reviews list is no review card (keys: ${Object.keys(cards[bad]!).join(', ').slice(0, 60)})`);
  return cards;
}

/**
 * The `data` of a reviews answer (or a page state blob) → its page; nothing like it → typed error.
 * @example readReviews({ storeReviews: { storeHeader: { id: '1', name: 'X' }, reviews: [] } }, '1').nodes // []
 */
export function readReviews(data: Obj, storeId: string | null): ReviewsPage {
  if (OPERATION in data && data[OPERATION] === null) throw new SourceError('not_found', `${OPERATION}: the site has no such store`);
  const holder = findValues(data, holdsReviews)[0];
  const header = findValues(data, isStoreHeader(storeId))[0] ?? null;
  if (!holder) {
    if (header) return { store: storeOf(header), nodes: [], nextCursor: null, hasMore: false };
    throw new SourceError('layout_changed', `${OPERATION}: the answer holds neither reviews nor the store (keys: ${Object.keys(data).join(', ').slice(0, 80)})`);
  }
  const nodes = cardsOf(holder);
  const info = obj(holder.pageInfo) ?? holder;
  const more = info.hasNextPage ?? info.hasMore ?? holder.hasMore;
  return {
    store: header ? storeOf(header) : null,
    nodes,
    nextCursor: str(info.cursor) ?? str(info.endCursor) ?? str(info.nextCursor) ?? str(holder.nextCursor),
    hasMore: typeof more === 'boolean' ? more : null,
  };
}

function reviewsStepResult(step: Step, res: FetchedResponse, ctx: QueryContext<DeliveryParams>): ParseResult<DeliveryReview> {
  const p = ctx.params ?? {};
  const state = step.state as DeliveryState;
  const data = readSiteAnswer(res, OPERATION);
  const page = readReviews(data, state.storeId);
  const storeName = page.store?.name ?? state.storeName ?? null;
  const records = page.nodes.map((n) => reviewOfCard(n, ctx.query, state.storeId, storeName, page, res));
  const hasMore = (page.hasMore ?? page.nodes.length >= PAGE_SIZE) && !!page.nextCursor;
  const c = reviewChunk({ records, cutoff: p.cutoff, hasMore });
  const next = c.follow ? [reviewsStep({ ...state, cursor: page.nextCursor, storeName }, p)] : [];
  return { records: c.kept, next };
}

function reviewOfCard(n: Obj, query: string, storeId: string, storeName: string | null, page: ReviewsPage, res: FetchedResponse) {
  return reviewOf(n, { query, storeId, storeName, storeRating: page.store?.rating, storeRatingsCount: page.store?.count, now: responseTime(res.headers) });
}

export function parse(step: Step, res: FetchedResponse, ctx: QueryContext<DeliveryParams>): ParseResult<DeliveryReview> {
  if (step.kind === 'reviews') return reviewsStepResult(step, res, ctx);
  throw new SourceError('layout_changed', `delivery-reviews: unknown step kind ${step.kind}`);
}
