/**
 * `/delivery-reviews` adapter (unit `review`): the store's reviews operation of the site's web
 * GraphQL, page after page.
 *
 * @example
 *   const [first] = adapter.plan({ query: 'https://www.doordash.com/store/joes-pizza-24687/', params: { limit: 50 } });
 *   // executor fetches; adapter.parse(step, res, ctx) → records + the next reviews step
 */
import type { WebAdapter } from '../_kit/adapter.ts';
import { parse } from './parse.ts';
import { plan } from './plan.ts';
import { readStoreQuery } from './query.ts';
import type { DeliveryParams, DeliveryReview } from './record.ts';
import { checkByResult } from '../_kit/check.ts';

export const adapter: WebAdapter<DeliveryParams, DeliveryReview> = {
  kind: 'web',
  endpoint: '/delivery-reviews',
  checkQuery: checkByResult(readStoreQuery),
  plan,
  parse,
};
