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
 * The site is in process (no sockets), so the run measures the planner, not the network. The same
 * site varied (layouts, view caps, noisier rankings) is bench/areas-robust.bench.ts.
 */
import { resolveArea } from '../src/lookups/geo/area/resolve.ts';
import { populationReady } from '../src/sources/maps-search/density.ts';
import { mapSite } from '../test/support/map-site.ts';
import { runArea } from './areas-run.ts';

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
const { run_s, summary, ...run } = runArea(site, area, AREA);
const result = {
  area: AREA, ...run,
  rss_mb: Math.round(process.memoryUsage().rss / 1048576), build_s: Math.round(built / 100) / 10, run_s,
  summary,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
