/**
 * An area's covering is planned and moved on off the API thread (issue 39 item 1): with parse
 * threads, the first covering of an area (its shape, root views, density prior) and every page's
 * step of the planner run on a parse thread, so the API thread never resolves the area's shape.
 * Checked by count, not by time: `areaResolvesHere()` counts the shapes this thread resolved, and it
 * does not move while a whole area request runs through the service (the loopback map site, the
 * real /maps/search adapter, the service's own parse threads over the same adapters).
 * With PARSE_THREADS=0 the same request plans here (what the service did before): the count moves.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, until, type Harness } from './support/harness.ts';
import { mapSite } from './support/map-site.ts';
import { siteAdapters } from './support/site-adapters.ts';
import { areaResolvesHere, resolveArea } from '../src/lookups/geo/area/resolve.ts';

const AREA = '-115.3,36.0,-115.1,36.2';
const site = mapSite({ area: resolveArea(AREA), places: 600, seed: 3 });
const http = await site.listen();
// The service's parse threads read the site's address from the environment (./support/site-adapters.ts).
process.env.MAP_SITE_URL = http.url;
const harnesses: Harness[] = [];
after(async () => { for (const h of harnesses) await h.close(); await http.close(); });

async function areaRequest(threads: string): Promise<{ resolved: number; places: number }> {
  const h = await startHarness({ adapters: siteAdapters(), env: { PARSE_THREADS: threads }, settings: { allowPrivateTargets: true },
    parseJobModule: new URL('./support/site-parse-job.ts', import.meta.url) });
  harnesses.push(h);
  const before = areaResolvesHere();
  const sub = await h.json(`/maps/search?query=dentist&limit=100000&area=${encodeURIComponent(AREA)}`);
  assert.equal(sub.status, 202, JSON.stringify(sub.body));
  const done = await until(async () => { const r = await h.json(`/requests/${sub.body.id}`); return r.body.status === 'Success' && r.body; }, 120_000, 'the area request');
  return { resolved: areaResolvesHere() - before, places: (done.data[0] as unknown[]).length };
}

test('with a parse thread, a whole area request never resolves its shape on the API thread', { timeout: 240_000 }, async () => {
  const truth = [...Array(site.count).keys()].filter((i) => resolveArea(AREA).contains(site.lat[i]!, site.lng[i]!)).length;
  const off = await areaRequest('1');
  assert.equal(off.resolved, 0, 'the plan and every page of the covering ran on the parse thread');
  assert.ok(off.places >= 0.98 * truth, `${off.places} of ${truth} places`);
  // The same request planned here (no parse thread): the shape is resolved on this thread.
  const here = await areaRequest('0');
  assert.ok(here.resolved > 0, 'without parse threads the covering runs here');
  assert.ok(here.places >= 0.98 * truth, `${here.places} of ${truth} places`);
});
