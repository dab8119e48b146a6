/**
 * `/engine-search-events` adapter (unit `event`).
 *
 * @example
 *   const [step] = adapter.plan({ query: 'concerts in london', params: { pagesPerQuery: 2 } });
 *   const { records, next } = adapter.parse(step, response, ctx);
 */
import type { WebAdapter } from '../_kit/adapter.ts';
import { parse } from './parse.ts';
import { plan } from './plan.ts';
import type { EventRecord, EventsParams } from './record.ts';

export const adapter: WebAdapter<EventsParams, EventRecord> = {
  kind: 'web',
  endpoint: '/engine-search-events',
  checkQuery: (q) => (q.trim() ? undefined : 'query is empty: give a search phrase such as "concerts in london"'),
  plan,
  parse,
};
