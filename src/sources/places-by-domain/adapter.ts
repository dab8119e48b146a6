/**
 * `/engine-places-by-domain` adapter (unit `place`): map search for the domain, keep the places
 * whose website is on it; a query with no such place yields `{query, no_result: true}`.
 *
 * @example
 *   const [step] = adapter.plan({ query: 'kipriakon.com', params: {} });
 *   const out = adapter.parse(step, response, ctx); // matching place records + next page
 *   adapter.finish!(allRecords, ctx);
 */
import type { WebAdapter } from '../_kit/adapter.ts';
import { finish, parse } from './parse.ts';
import { checkQuery, plan } from './plan.ts';
import type { NoResult, PlacesByDomainParams, PlaceRecord } from './record.ts';

export const adapter: WebAdapter<PlacesByDomainParams, PlaceRecord | NoResult> = {
  kind: 'web',
  endpoint: '/engine-places-by-domain',
  checkQuery,
  plan,
  parse: parse as WebAdapter<PlacesByDomainParams, PlaceRecord | NoResult>['parse'],
  finish,
};
