/**
 * `/bizdir-reviews` adapter (unit `review`): business page → `GetBusinessReviewFeed` pages.
 *
 * @example
 *   const [page] = adapter.plan({ query: 'https://www.yelp.com/biz/vons-1000-spirits-seattle-4', params: { limit: 20 } });
 *   // executor fetches; adapter.parse(step, res, ctx) → records + the next feed step
 */
import type { WebAdapter } from '../_kit/adapter.ts';
import { parse } from './parse.ts';
import { plan } from './plan.ts';
import { readBizQuery } from './query.ts';
import type { BizdirParams, BizdirReview } from './record.ts';
import { checkByResult } from '../_kit/check.ts';

export const adapter: WebAdapter<BizdirParams, BizdirReview> = {
  kind: 'web',
  endpoint: '/bizdir-reviews',
  checkQuery: checkByResult(readBizQuery),
  plan,
  parse,
};

