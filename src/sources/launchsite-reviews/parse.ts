/**
 * `parse` of `/launchsite-reviews`: the product/launch page → the first reviews step (the product's
 * slug, the page's persisted hash); a reviews answer → its reviews (cutoff; the runner owns limit
 * and the cursor) and the next page.
 *
 * The answer is read by shape, not by one path: the product is the object holding a `reviews`
 * connection (`edges[].node` or `nodes`) of reviews, wherever the operation nests it. An unknown
 * persisted hash (`PersistedQueryNotFound`) sends the same page again with the query text; a
 * product the site does not know (`product: null`) is `not_found`; an answer without data is a typed
 * `GraphqlError` (rate limit, block, validation): never "no reviews".
 */
import type { FetchedResponse, ParseResult, QueryContext, Step } from '../_kit/adapter.ts';
import { findValues } from '../_kit/embedded.ts';
import { SourceError } from '../_kit/errors.ts';
import { GraphqlError, htmlInPlaceOfAnswer, readGraphql } from '../_kit/graphql.ts';
import { chunkTally, reviewChunk } from '../_kit/review-chunk.ts';
import { connectionNodes, int, obj, str, type Obj } from '../_kit/values.ts';
import { productOf, readProductPage, type ProductInfo } from './page.ts';
import { OPERATION, PAGE_SIZE, reviewsStep, type LaunchsiteState } from './plan.ts';
import type { LaunchsiteParams, LaunchsiteReview } from './record.ts';
import { isReviewNode, productStats, reviewOf } from './review.ts';

/** What one reviews answer holds. */
export interface ReviewsPage {
  product: ProductInfo | null;
  rating: number | null;
  count: number | null;
  nodes: Obj[];
  endCursor: string | null;
  /** `pageInfo.hasNextPage` when given. */
  hasNextPage: boolean | null;
}

const isConnection = (v: unknown): boolean => {
  const o = obj(v);
  if (!o || !(Array.isArray(o.edges) || Array.isArray(o.nodes))) return false;
  const nodes = connectionNodes(o);
  return nodes.length === 0 ? 'pageInfo' in o || 'totalCount' in o : nodes.every(isReviewNode);
};
const holdsReviews = (v: unknown): v is Obj => {
  const o = obj(v);
  return !!o && isConnection(o.reviews);
};
const bareConnection = (v: unknown): v is Obj => isConnection(v) && connectionNodes(v).length > 0;

/**
 * The `data` of a reviews answer → its page; nothing like it → typed `SourceError`.
 * @example readReviews({ product: { id: '1', slug: 'x', name: 'X', reviews: { edges: [], pageInfo: { hasNextPage: false } } } }).nodes // []
 */
export function readReviews(data: Obj): ReviewsPage {
  const holder = findValues(data, holdsReviews)[0];
  const connection = holder ? obj(holder.reviews)! : findValues(data, bareConnection)[0];
  if (!connection) {
    if ('product' in data && data.product === null) throw new SourceError('not_found', `${OPERATION}: the site has no such product`);
    throw new SourceError('layout_changed', `${OPERATION}: the answer holds no reviews connection (keys: ${Object.keys(data).join(', ').slice(0, 80)})`);
  }
  const info = obj(connection.pageInfo);
  const stats = productStats(holder ?? null);
  return {
    product: holder && (holder.__typename === 'Product' || 'slug' in holder) ? productOf(holder) : null,
    ...stats,
    count: stats.count ?? int(connection.totalCount),
    nodes: connectionNodes(connection),
    endCursor: str(info?.endCursor),
    hasNextPage: typeof info?.hasNextPage === 'boolean' ? info.hasNextPage : null,
  };
}

function pageStepResult(step: Step, res: FetchedResponse, p: LaunchsiteParams): ParseResult<LaunchsiteReview> {
  const state = step.state as LaunchsiteState;
  if (res.status === 404) throw new SourceError('not_found', `${res.url}: the site has no such ${state.post ? 'launch' : 'product'}`);
  const page = readProductPage(res.body, state.post);
  if (!page.isAppPage) throw new SourceError('layout_changed', `page ${res.url} carries no app state`);
  // A launch without a product page has no reviews: an empty result (billed one review).
  if (state.post && !page.product?.slug) return { records: [], next: [] };
  const product = page.product?.slug ?? state.slug;
  return {
    records: [],
    next: [reviewsStep({ ...state, product, productId: page.product?.id ?? null, productName: page.product?.name ?? null, hash: page.hash }, p)],
  };
}

function reviewsStepResult(step: Step, res: FetchedResponse, ctx: QueryContext<LaunchsiteParams>): ParseResult<LaunchsiteReview> {
  const p = ctx.params ?? {};
  const state = step.state as LaunchsiteState & { product: string };
  const wall = htmlInPlaceOfAnswer(res.body, res.status, OPERATION);
  if (wall) throw wall;
  let data: Obj;
  try {
    data = readGraphql<Obj>(res.body);
  } catch (e) {
    if (e instanceof GraphqlError && e.code === 'persisted_query_not_found' && !state.fullQuery) {
      return { records: [], next: [reviewsStep({ ...state, fullQuery: true }, p)] };
    }
    if (e instanceof GraphqlError && e.code === 'no_data' && res.status !== 200) throw new SourceError('layout_changed', `${OPERATION}: HTTP ${res.status} (${res.body.slice(0, 120).replace(/\s+/g, ' ')})`);
    throw e;
  }
  const page = readReviews(data);
  const product: ProductInfo = {
    slug: page.product?.slug ?? state.product,
    id: page.product?.id ?? state.productId ?? null,
    name: page.product?.name ?? state.productName ?? null,
  };
  const records = page.nodes.map((n) => reviewOf(n, { query: ctx.query, product, rating: page.rating, count: page.count }));
  const hasMore = page.hasNextPage ?? (!!page.endCursor && page.nodes.length >= PAGE_SIZE);
  const c = reviewChunk({ records, cutoff: p.cutoff, hasMore: hasMore && !!page.endCursor });
  const next = c.follow ? [reviewsStep({ ...state, after: page.endCursor, productId: product.id, productName: product.name }, p)] : [];
  return { records: c.kept, next, tallies: [chunkTally(product.slug ?? ctx.query, page.count, page.nodes.length, c)] };
}

export function parse(step: Step, res: FetchedResponse, ctx: QueryContext<LaunchsiteParams>): ParseResult<LaunchsiteReview> {
  if (step.kind === 'page') return pageStepResult(step, res, ctx.params ?? {});
  if (step.kind === 'reviews') return reviewsStepResult(step, res, ctx);
  throw new SourceError('layout_changed', `launchsite-reviews: unknown step kind ${step.kind}`);
}
