/**
 * `/maps/reviews` adapter (unit `review`): place → reviews pages → one element per place.
 *
 * @example
 *   const steps = adapter.plan({ query: 'ChIJDdnwdv0y5xQRRytw1ihZQeU', params: { reviewsLimit: 50 } });
 *   // executor fetches; for each response: adapter.parse(step, res, ctx) → items + next steps
 *   const elements = adapter.finish!(allItems, ctx);
 */
import type { WebAdapter } from '../_kit/adapter.ts';
import { checkMapsQuery } from '../_maps/query.ts';
import { finish, parse } from './parse.ts';
import { plan } from './plan.ts';
import { isNoResult, type ReviewsOutput, type ReviewsParams } from './record.ts';

export const adapter: WebAdapter<ReviewsParams, any> = {
  kind: 'web',
  endpoint: '/maps/reviews',
  // Same query forms as /maps/search: phrase, place id, CID, feature id, map URL, short link.
  checkQuery: checkMapsQuery,
  plan,
  parse: parse as WebAdapter<ReviewsParams, any>['parse'],
  finish: finish as WebAdapter<ReviewsParams, any>['finish'],
  // One unit per review, not per place element; an empty query's one unit comes from emptyCostsOne.
  units: (records) => reviewCount(records as ReviewsOutput[]),
};

function reviewCount(records: ReviewsOutput[]): number {
  let n = 0;
  for (const r of records) if (!isNoResult(r)) n += r.reviews_data.length;
  return n;
}

/**
 * Billable reviews of one query's finished elements: the reviews returned, and one when the query
 * found no place or no review (decision 20).
 * @example billableUnits([{ query: 'x', no_result: true }]) // 1
 */
export function billableUnits(records: ReviewsOutput[]): number {
  return Math.max(1, reviewCount(records));
}

