/**
 * Covering an area (cover.ts) through the real adapter's plan/parse/finish against the loopback map
 * site (test/support/map-site.ts): places by population density, 120 a view, 20 a page, ranking noise.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { adapter } from './adapter.ts';
import { placeKey } from './finish.ts';
import { rootViews } from './cover.ts';
import { populationReady } from './density.ts';
import { resolveArea } from '../../lookups/geo/area/resolve.ts';
import type { MapsSearchParams } from '../_maps/params.ts';
import type { PlaceRecord } from '../_maps/record.ts';
import type { Step } from '../_kit/adapter.ts';
import { mapSite } from '../../../test/support/map-site.ts';

const AREA = '-115.5,35.9,-114.9,36.4'; // a box around Las Vegas
const area = resolveArea(AREA);
const site = mapSite({ area, places: 6000, seed: 3 });
// The density prior's population (read in the background in the service) is read before the runs.
await populationReady();

function run(params: MapsSearchParams, crashEvery = 0, on = site) {
  const ctx = { query: 'dentist', params: { area: AREA, ...params } };
  let queue: Step[] = adapter.plan(ctx);
  const records: PlaceRecord[] = [];
  let summary: Record<string, unknown> | undefined;
  let steps = 0;
  while (queue.length) {
    const step = queue.shift()!;
    const res = on.serve(step.url);
    const out = adapter.parse(step, { status: res.status, url: step.url, headers: {}, body: res.body }, ctx);
    records.push(...out.records);
    if (out.summary) summary = out.summary;
    queue.push(...(out.next ?? []));
    // A resume reads the pending steps back from the store's JSON.
    if (crashEvery && ++steps % crashEvery === 0) queue = JSON.parse(JSON.stringify(queue));
  }
  return { records: adapter.finish!(records, ctx), raw: records.length, summary: summary! };
}

test('an area is covered: nearly every place inside found once, none outside, coverage stated', () => {
  const before = site.requests;
  const { records, summary } = run({});
  const requests = site.requests - before;
  const keys = records.map(placeKey);
  assert.equal(new Set(keys).size, keys.length, 'no place twice');
  const ids = records.map((r) => parseInt(r.engine_id!.split(':0x')[1]!, 16));
  assert.equal(ids.filter((i) => !site.inside[i]).length, 0, 'no place outside the area');
  const recall = ids.length / site.insideCount;
  assert.ok(site.insideCount > 1000, `${site.insideCount} places inside`);
  assert.ok(recall >= 0.99, `recall ${recall}`);
  assert.ok(records.length > 500, 'no 500 cap for an area');
  const oracle = site.oracle(rootViews(area));
  assert.ok(requests <= 1.25 * oracle, `${requests} requests, oracle ${oracle}`);
  assert.equal(summary.requests, requests);
  assert.equal(summary.places_found, records.length, 'the figure counts the places of the area returned');
  // The density prior splits the dense cells without searching them.
  assert.ok(Number(summary.views_searched) > 10 && Number(summary.views_split_unsearched) > 10);
  assert.ok(Math.abs(Number(summary.coverage) - recall) < 0.01, `coverage ${summary.coverage} vs recall ${recall}`);
});

test('limit bounds the places of the area; the state survives a JSON round trip at every step', () => {
  const { records } = run({ limit: 700 });
  assert.equal(records.length, 700);
  const a = run({}, 1).records.map(placeKey).sort();
  assert.ok(a.length > 700 && new Set(a).size === a.length);
});

test('a noisier ranking: pages overlap more where views miss places, and the coverage figure follows the misses', () => {
  // Five times the noise: with the fixed two-place overlap 95% of the places were found.
  const noisy = mapSite({ area, places: 6000, seed: 3, noise: 0.1 });
  const { records, summary } = run({}, 0, noisy);
  const recall = records.length / noisy.insideCount;
  assert.ok(recall >= 0.965, `recall ${recall}`);
  assert.ok(Math.abs(Number(summary.coverage) - recall) < 0.01, `coverage ${summary.coverage} vs recall ${recall}`);
});
