// The omniscient bound (bench/areas-bound.ts) against what it must equal or exceed on sites whose
// answer is known: without noise it pays the oracle's pages of the places it needs, with noise more.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveArea } from '../src/lookups/geo/area/resolve.ts';
import { populationReady } from '../src/sources/maps-search/density.ts';
import { rootViews } from '../src/sources/maps-search/cover.ts';
import { mapSite } from './support/map-site.ts';
import { omniscientBound } from '../bench/areas-bound.ts';

test('the omniscient bound: the oracle\'s pages without noise, more with it, less at a lower recall', async () => {
  await populationReady();
  const area = resolveArea('US>Nevada');
  const roots = rootViews(area);
  const still = mapSite({ area, inside: 1500, seed: 3, layout: 'clustered', cap: 60, noise: 0 });
  // Without noise every page of a view shows the next places by rank: a view's inside places cost
  // at least ceil(k / 20) requests and at most the oracle's ceil(n / 20) (n counts the places outside
  // the area it shows too).
  const least = still.oracleViews(roots).views.reduce((a, v) => a + Math.ceil(v.ids.filter((i) => still.inside[i]).length / 20), 0);
  const full = omniscientBound(still, roots, 1);
  assert.ok(full.requests >= least && full.requests <= still.oracle(roots), `${least} <= ${full.requests} <= ${still.oracle(roots)}`);
  const noisy = mapSite({ area, inside: 1500, seed: 3, layout: 'clustered', cap: 60, noise: 0.2 });
  assert.ok(omniscientBound(noisy, roots, 1).requests > full.requests, 'noise costs even a reader that knows every place');
  assert.ok(omniscientBound(still, roots, 0.9).requests < full.requests, 'a lower recall needs fewer requests');
});
