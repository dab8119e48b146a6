/**
 * `/maps/search`: places for phrases, ids and map URLs (interface 4.2, records 2.3).
 *
 * @example
 *   const steps = adapter.plan({ query: 'coffee athens', params: { limit: 200 } });
 *   const out = adapter.parse(steps[0], response, ctx); // records + next pages / cells
 *   const final = adapter.finish!(allRecords, ctx);      // deduped, `skip` left out, cut to limit
 */
import type { WebAdapter } from '../_kit/adapter.ts';
import type { PlaceRecord } from '../_maps/record.ts';
import { mergePlaces } from './finish.ts';
import { searchSettings, type MapsSearchParams } from '../_maps/params.ts';
import { parseMapsSearch } from './parse.ts';
import { checkMapsQuery } from '../_maps/query.ts';
import { planMapsSearch } from './plan.ts';

export const adapter: WebAdapter<MapsSearchParams, PlaceRecord> = {
  kind: 'web',
  endpoint: '/maps/search',
  checkQuery: checkMapsQuery,
  plan: planMapsSearch,
  // An area's covering reads its shape and the density prior, and plans over them at each page.
  offThread: (ctx) => typeof ctx.params.area === 'string' && ctx.params.area !== '',
  parse: parseMapsSearch,
  finish(records, ctx) {
    const s = searchSettings(ctx.params);
    // An area's limit is the places of the area; a view search's is at most 500.
    const limit = ctx.params.area ? ctx.params.limit ?? Infinity : s.limit;
    return mergePlaces(records, limit).slice(s.skip);
  },
};
