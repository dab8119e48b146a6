/**
 * `/rentals-reviews` adapter (unit `review`): listing page (API key, persisted-query hash) →
 * `StaysPdpReviewsQuery` pages.
 *
 * @example
 *   const [page] = adapter.plan({ query: 'https://www.airbnb.com/rooms/38817969', params: { limit: 50 } });
 *   // executor fetches; adapter.parse(step, res, ctx) → records + the next reviews step
 */
import type { WebAdapter } from '../_kit/adapter.ts';
import { parse } from './parse.ts';
import { plan } from './plan.ts';
import { readListingQuery } from './query.ts';
import type { RentalsParams, RentalsReview } from './record.ts';
import { checkByResult } from '../_kit/check.ts';

export const adapter: WebAdapter<RentalsParams, RentalsReview> = {
  kind: 'web',
  endpoint: '/rentals-reviews',
  checkQuery: checkByResult(readListingQuery),
  plan,
  parse,
};

