/**
 * `/hotels-search` adapter (unit `hotel`).
 *
 * @example
 *   const [step] = adapter.plan({ query: 'hotels in rome', params: { limit: 50 } });
 *   adapter.parse(step, response, ctx); // { records, next: [the next variant], cursor }
 */
import type { WebAdapter } from '../_kit/adapter.ts';
import { parse } from './parse.ts';
import { plan } from './plan.ts';
import { readHotelsQuery } from './query.ts';
import type { HotelRecord, HotelsSearchParams } from './record.ts';

function checkQuery(q: string): string | undefined {
  try {
    readHotelsQuery(q);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

export const adapter: WebAdapter<HotelsSearchParams, HotelRecord> = {
  kind: 'web',
  endpoint: '/hotels-search',
  unit: 'hotel',
  checkQuery,
  plan,
  parse,
  finish(records, ctx) {
    const seen = new Set<string>();
    const out: HotelRecord[] = [];
    for (const r of records) {
      const key = r.hotel_id ?? r.engine_id ?? `${r.name}|${r.latitude}|${r.longitude}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(r);
    }
    return out.slice(0, ctx.params?.limit ?? 100);
  },
};
