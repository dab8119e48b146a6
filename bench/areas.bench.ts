/**
 * Covering a whole area: the real /maps/search adapter (plan, parse, finish's dedupe) against the
 * loopback map site (test/support/map-site.ts) over synthetic places laid out by GeoNames population,
 * compared with the oracle planner that knows every place (the least requests that find them all).
 *
 *   npm run bench -- areas                       AREA_PLACES=100000 in AREA=US>Nevada (defaults)
 *   AREA=FR AREA_PLACES=1000000 npm run bench -- areas
 *
 * AREA_PLACES places lie inside the area (the site draws places over the area's box grown 10% until
 * that many fell inside; `generated` counts them all). Prints, as its last line, one JSON object:
 * places (of the area), recall (share of them found),
 * requests_ratio (requests / the oracle's), coverage_error (|reported coverage - recall| in points of
 * percent), outside (places returned outside the area), rss_mb, and the figures behind them.
 * The site is in process (no sockets), so the run measures the planner, not the network.
 */
import { adapter } from '../src/sources/maps-search/adapter.ts';
import { resolveArea } from '../src/lookups/geo/area/resolve.ts';
import { rootViews } from '../src/sources/maps-search/cover.ts';
import { populationReady } from '../src/sources/maps-search/density.ts';
import { placeKey } from '../src/sources/maps-search/finish.ts';
import type { MapsSearchParams } from '../src/sources/_maps/params.ts';
import { mapSite } from '../test/support/map-site.ts';

const AREA = process.env.AREA || 'US>Nevada';
const PLACES = Number(process.env.AREA_PLACES || 100_000);
const SEED = Number(process.env.AREA_SEED || 1);

const t0 = performance.now();
// The density prior's population is read in the background in the service; here it is read first so
// the run is the same every time.
await populationReady();
const area = resolveArea(AREA);
const site = mapSite({ area, inside: PLACES, seed: SEED });
const built = performance.now() - t0;
const oracle = site.oracle(rootViews(area));

const ctx = { query: 'dentist', params: { area: AREA } as MapsSearchParams };
const queue = adapter.plan(ctx);
const found = new Set<string>();
let outside = 0;
let summary: Record<string, unknown> | undefined;
const t1 = performance.now();
while (queue.length) {
  const step = queue.shift()!;
  const res = site.serve(step.url);
  const out = adapter.parse(step, { status: res.status, url: step.url, headers: {}, body: res.body }, ctx);
  for (const r of out.records) {
    const k = placeKey(r);
    if (found.has(k)) continue;
    found.add(k);
    const i = parseInt(r.engine_id!.split(':0x')[1]!, 16);
    if (!site.inside[i]) outside++;
  }
  if (out.summary) summary = out.summary;
  queue.push(...(out.next ?? []));
}
const ms = performance.now() - t1;
const recall = (found.size - outside) / site.insideCount;
const coverage = Number(summary?.coverage ?? NaN);
const result = {
  area: AREA, places: site.insideCount, generated: site.count, found: found.size, recall: Math.round(recall * 1e4) / 1e4,
  requests: site.requests, oracle_requests: oracle, requests_ratio: Math.round((site.requests / oracle) * 1000) / 1000,
  coverage, coverage_error: Math.round(Math.abs(coverage - recall) * 1e4) / 100, outside,
  rss_mb: Math.round(process.memoryUsage().rss / 1048576), build_s: Math.round(built / 100) / 10, run_s: Math.round(ms / 100) / 10,
  summary,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
