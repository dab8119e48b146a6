// The estimation ceiling's override (bench/areas-estimate.ts, cover.ts setEstimateOverride): the
// density is the generator's, not the draw's, and the override moves the planner only while it is set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveArea } from '../src/lookups/geo/area/resolve.ts';
import { populationReady } from '../src/sources/maps-search/density.ts';
import { rootViews } from '../src/sources/maps-search/cover.ts';
import { quadrants } from '../src/sources/_maps/cells.ts';
import { mapSite, type MapSiteOptions } from './support/map-site.ts';
import { densityOf, estimateOverride } from '../bench/areas-estimate.ts';
import { runArea } from '../bench/areas-run.ts';

await populationReady();
const area = resolveArea('US>Nevada');
const opts: MapSiteOptions = { area, inside: 3000, seed: 3, layout: 'clustered', cap: 60, noise: 0.05, pairedNoise: true };

test('the density: the same centres drawn again, not the case\'s own draws', () => {
  const site = mapSite(opts);
  const density = densityOf(site, opts);
  const cells = rootViews(area).flatMap((r) => quadrants(r)).flatMap((q) => quadrants(q));
  const count = cells.map((b) => site.shownIds(b).length), lambda = cells.map(density);
  // Over the whole area it holds what the site drew; cell by cell a count is a Poisson draw about it.
  const sum = (xs: number[]) => xs.reduce((a, x) => a + x, 0);
  assert.ok(Math.abs(sum(lambda) - sum(count)) < 0.05 * sum(count), `${sum(lambda)} vs ${sum(count)}`);
  const z = cells.map((_, i) => (count[i]! - lambda[i]!) / Math.sqrt(lambda[i]! + 1));
  const spread = sum(z.map((x) => x * x)) / z.length;
  assert.ok(spread > 0.3 && spread < 3, `spread about the density ${spread} (the counts themselves: 0)`);
  // Another seed's centres lie elsewhere: its density is far from this site's counts.
  const other = mapSite({ ...opts, seed: 4 });
  const far = cells.map(densityOf(other, { ...opts, seed: 4 }));
  assert.ok(sum(cells.map((_, i) => (count[i]! - far[i]!) ** 2 / (far[i]! + 1))) / cells.length > 10, 'a seed\'s own layout');
});

test('the override moves the split decision while set, and nothing once done', () => {
  const plain = runArea(mapSite(opts), area, 'US>Nevada');
  const site = mapSite(opts);
  const est = estimateOverride(site, opts, 'count');
  const told = runArea(site, area, 'US>Nevada');
  est.done();
  assert.notEqual(told.requests, plain.requests, 'the true counts change the decisions');
  assert.ok(told.recall >= 0.99 && plain.recall >= 0.99, `recall ${told.recall}, ${plain.recall}`);
  const after = runArea(mapSite(opts), area, 'US>Nevada');
  assert.equal(after.requests, plain.requests, 'unset, the planner is as before');
  assert.equal(after.recall, plain.recall);
});
