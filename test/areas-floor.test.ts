// The noise floor (bench/areas-floor.ts) on sites whose answer is known: without noise it pays the
// oracle's views paged 18 apart to a short page; a known count saves the page that only finds a view's
// end; views held to a smaller share of the cap are more views, so more requests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveArea } from '../src/lookups/geo/area/resolve.ts';
import { populationReady } from '../src/sources/maps-search/density.ts';
import { rootViews } from '../src/sources/maps-search/cover.ts';
import { mapSite } from './support/map-site.ts';
import { noiseFloor } from '../bench/areas-floor.ts';

test('the noise floor: the oracle paged without noise, less with counts known, more with views held smaller', async () => {
  await populationReady();
  const area = resolveArea('US>Nevada');
  const roots = rootViews(area);
  const still = mapSite({ area, inside: 3000, seed: 3, layout: 'uniform', cap: 120, noise: 0 });
  const plain = noiseFloor(still, roots, 0.99);
  assert.equal(plain, still.oracle(roots, { step: 18 }), 'without noise: the oracle\'s views paged as the planner pages them');
  // A view of exactly 20 + 18k places ends on a full page; with its count known that page is its last.
  const ends = still.oracleViews(roots).views.filter((v) => v.ids.length >= 20 && (v.ids.length - 20) % 18 === 0).length;
  assert.ok(ends > 0, 'the site has views whose count a full page reaches');
  assert.equal(noiseFloor(still, roots, 0.99, 20, { counts: true }), plain - ends);
  assert.ok(noiseFloor(still, roots, 0.99, 20, { scale: 0.5 }) > plain, 'views held to half the cap cost more without noise');
});
