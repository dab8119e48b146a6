/**
 * `/lodging-prices` adapter (unit `price`): one record per offered room or rate. A hotel the answer
 * shows with no rate is one record with a null price and `no_price_reason`; it is no price, so it is
 * not billed (units count the rates).
 *
 * @example
 *   const [step] = adapter.plan({ query: 'https://www.booking.com/hotel/gb/gardencourthotel.html?checkin=2026-05-01&checkout=2026-05-03', params: {} });
 *   adapter.parse(step, response, ctx).records; // [{ room_name, price, currency, ... }]
 */
import type { WebAdapter } from '../_kit/adapter.ts';
import { checkByReading } from '../_kit/check.ts';
import { parse } from './parse.ts';
import { plan } from './plan.ts';
import { readLodgingQuery } from './query.ts';
import type { PriceRecord } from './record.ts';

export const adapter: WebAdapter<Record<string, unknown>, PriceRecord> = {
  kind: 'web',
  endpoint: '/lodging-prices',
  checkQuery: checkByReading((q) => readLodgingQuery(q, Date.now())),
  plan: (ctx) => plan(ctx),
  parse,
  units: (records) => (records as PriceRecord[]).filter((r) => r.no_price_reason == null).length,
};
