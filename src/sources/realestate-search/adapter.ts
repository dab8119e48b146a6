/**
 * `/realestate-search` adapter (unit `property`).
 *
 * @example
 *   const [step] = adapter.plan({ query: 'san francisco, ca', params: { mainFilter: 'for_sale', limit: 500 } });
 *   adapter.parse(step, response, ctx); // records + next pages or map quadrants
 */
import type { WebAdapter } from '../_kit/adapter.ts';
import { checkByReading } from '../_kit/check.ts';
import { finish, parse } from './parse.ts';
import { plan } from './plan.ts';
import { readEstateQuery } from './query.ts';
import type { EstateParams, EstateRecord } from './record.ts';

export const adapter: WebAdapter<EstateParams, EstateRecord> = {
  kind: 'web',
  endpoint: '/realestate-search',
  checkQuery: checkByReading((q) => readEstateQuery(q)),
  plan,
  parse,
  finish,
};
