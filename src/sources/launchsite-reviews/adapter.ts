/**
 * `/launchsite-reviews` adapter (unit `review`): product or launch page → `ProductReviewsPage`
 * pages of the site's `/frontend/graphql`.
 *
 * @example
 *   const [page] = adapter.plan({ query: 'https://www.producthunt.com/products/linear', params: { limit: 50 } });
 *   // executor fetches; adapter.parse(step, res, ctx) → records + the next reviews step
 */
import type { WebAdapter } from '../_kit/adapter.ts';
import { parse } from './parse.ts';
import { plan } from './plan.ts';
import { readProductQuery } from './query.ts';
import type { LaunchsiteParams, LaunchsiteReview } from './record.ts';
import { checkByResult } from '../_kit/check.ts';

export const adapter: WebAdapter<LaunchsiteParams, LaunchsiteReview> = {
  kind: 'web',
  endpoint: '/launchsite-reviews',
  checkQuery: checkByResult(readProductQuery),
  plan,
  parse,
};
