/**
 * `/hotels-search` adapter (unit `hotel`).
 *
 * @example
 *   const [step] = adapter.plan({ query: 'hotels in rome', params: { limit: 50 } });
 *   adapter.parse(step, response, ctx); // { records, next: [the next variant] }
 * No `finish`: each step already drops hotels an earlier answer gave, so the runner streams the
 * records, applies `limit` and signs `next_page_cursor`.
 */
import type { WebAdapter } from '../_kit/adapter.ts';
import { checkByReading } from '../_kit/check.ts';
import { parse } from './parse.ts';
import { plan } from './plan.ts';
import { readHotelsQuery } from './query.ts';
import type { HotelRecord, HotelsSearchParams } from './record.ts';

export const adapter: WebAdapter<HotelsSearchParams, HotelRecord> = {
  kind: 'web',
  endpoint: '/hotels-search',
  checkQuery: checkByReading(readHotelsQuery),
  plan,
  parse,
};
