/**
 * Steps of `/delivery-reviews`: the site's web GraphQL, one operation per request, as its own
 * client sends it (`_doordash/site.ts`). The store page itself is not fetched: it sits behind
 * Cloudflare's managed challenge, and the reviews answer names the store.
 *
 * The reviews operation pages by the site's opaque `cursor` and sorts by `sortBy` (every declared
 * sort maps onto one of the site's orders, table `SORT_BY`; `cutoff` forces newest first).
 */
import type { QueryContext, Step } from '../_kit/adapter.ts';
import { SourceError } from '../_kit/errors.ts';
import { siteStep } from '../_doordash/site.ts';
import { readStoreQuery } from './query.ts';
import type { DeliveryParams, DeliverySort } from './record.ts';

export const OPERATION = 'storeReviews';
/** Reviews per page (the store page's "see all reviews" list loads 10 at a time). */
export const PAGE_SIZE = 10;

/** Every sort of the declaration → the site's order. */
export const SORT_BY: Record<DeliverySort, string> = {
  highest_rated: 'HIGHEST_RATED',
  lowest_rated: 'LOWEST_RATED',
  newest: 'NEWEST',
  oldest: 'OLDEST',
};

export function siteSort(p: DeliveryParams): string {
  return p.cutoff ? SORT_BY.newest : SORT_BY[p.sort ?? 'highest_rated'];
}

/**
 * The operation text. Field names after the site's store page data (`storeHeader` with `ratings`,
 * review cards with reviewer name, stars, text, date and ordered items); the answer is read by
 * shape, so a renamed wrapper does not break it.
 */
export const QUERY = `query ${OPERATION}($storeId: ID!, $sortBy: ReviewSortType, $cursor: String, $limit: Int) {
  ${OPERATION}(storeId: $storeId, sortBy: $sortBy, cursor: $cursor, limit: $limit) {
    storeHeader { id name ratings { averageRating numRatings numRatingsDisplayString } }
    reviews { reviewUuid consumerId reviewerDisplayName numRatingsByConsumer starRating reviewText
      reviewedAt reviewDate orderedItems { name } experience isVerified merchantResponse { responseText } }
    pageInfo { cursor hasNextPage }
  }
}`;

export interface DeliveryState {
  [k: string]: unknown;
  storeId: string;
  /** The site's cursor of the next page (null: first page). */
  cursor: string | null;
  storeName?: string | null;
}

/**
 * One reviews page.
 * @example JSON.parse(reviewsStep({ storeId: '24687', cursor: null }, {}).body!).variables.sortBy // 'HIGHEST_RATED'
 */
export function reviewsStep(state: DeliveryState, p: DeliveryParams): Step {
  const variables = { storeId: state.storeId, sortBy: siteSort(p), cursor: state.cursor, limit: PAGE_SIZE };
  return siteStep('reviews', OPERATION, variables, QUERY, state.storeId, { ...state });
}

/**
 * Query → the first reviews page.
 * @example plan({ query: 'https://www.doordash.com/store/joes-pizza-24687/', params: {} })[0].url // 'https://www.doordash.com/graphql/storeReviews?operation=storeReviews'
 */
export function plan(ctx: QueryContext<DeliveryParams>): Step[] {
  const q = readStoreQuery(ctx.query);
  if ('error' in q) throw new SourceError('invalid_query', q.error);
  return [reviewsStep({ storeId: q.id, cursor: null }, ctx.params ?? {})];
}
