/**
 * `/engine-search-careers` adapter (unit `job`).
 *
 * @example
 *   const [step] = adapter.plan({ query: 'python developer san francisco', params: {} });
 *   const { records, next } = adapter.parse(step, response, ctx);
 */
import type { WebAdapter } from '../_kit/adapter.ts';
import { parse } from './parse.ts';
import { plan } from './plan.ts';
import type { CareersParams, JobRecord } from './record.ts';

export const adapter: WebAdapter<CareersParams, JobRecord> = {
  kind: 'web',
  endpoint: '/engine-search-careers',
  checkQuery: (q) => (q.trim() ? undefined : 'query is empty: give a search phrase such as "python developer berlin"'),
  plan,
  parse,
};
