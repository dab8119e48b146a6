/**
 * Area values → shapes (resolve.ts, geojson.ts, shape.ts): each kind of location, ZIPs, boxes and
 * GeoJSON, and every refusal naming what is wrong (the 422s of /maps/search's `area`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkArea, resolveArea } from './resolve.ts';
import { mapsSearch } from '../../../contract/endpoints/maps.ts';

test('locations: country, US state, county, city, region elsewhere, ZIP', () => {
  const nv = resolveArea('US>Nevada');
  assert.match(nv.kind, /US state Nevada/);
  assert.ok(nv.contains(36.17, -115.14), 'Las Vegas is in Nevada');
  assert.ok(!nv.contains(34.05, -118.24), 'Los Angeles is not');
  assert.match(resolveArea('US>California>Los Angeles County').kind, /county/);
  const la = resolveArea('US>California>Los Angeles');
  assert.match(la.kind, /^city Los Angeles \(US\)/);
  assert.ok(la.contains(34.05, -118.24) && !la.contains(36.17, -115.14));
  const idf = resolveArea('FR>Île-de-France');
  assert.ok(idf.contains(48.85, 2.35) && !idf.contains(45.76, 4.83), 'Paris in, Lyon out');
  const fr = resolveArea('fr');
  assert.ok(fr.contains(45.76, 4.83) && !fr.contains(41.9, 12.5), 'Lyon in France, Rome not');
  const zip = resolveArea('90210');
  assert.match(zip.kind, /US ZIP 90210 \(Beverly Hills\)/);
  assert.ok(zip.contains(34.09, -118.406));
  assert.equal(resolveArea('US>90210').kind, zip.kind);
});

test('box and GeoJSON: inside, holes, MultiPolygon, Feature', () => {
  const box = resolveArea('23.6,37.9,23.8,38.1');
  assert.ok(box.contains(38, 23.7) && !box.contains(38, 23.9));
  const ring = [[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]];
  const hole = [[4, 4], [6, 4], [6, 6], [4, 6], [4, 4]];
  const donut = resolveArea(JSON.stringify({ type: 'Feature', geometry: { type: 'Polygon', coordinates: [ring, hole] } }));
  assert.ok(donut.contains(2, 2) && !donut.contains(5, 5), 'the hole is outside');
  const two = resolveArea(JSON.stringify({ type: 'MultiPolygon', coordinates: [[ring], [[[20, 20], [21, 20], [21, 21], [20, 21], [20, 20]]]] }));
  assert.ok(two.contains(20.5, 20.5) && two.contains(1, 1) && !two.contains(15, 15));
  assert.ok(two.meets({ s: 9, w: 9, n: 11, e: 11 }) && !two.meets({ s: 12, w: 12, n: 13, e: 13 }));
  assert.ok(donut.meets({ s: 4.5, w: 4.5, n: 5.5, e: 5.5 }) === false, 'a box inside the hole does not meet the shape');
});

test('bad areas are refused with what is wrong', () => {
  const cases: Array<[string, RegExp]> = [
    ['XX>Foo', /not a location: it must start with a country code/],
    ['US>Nowhere', /US has no region or city named "Nowhere"/],
    ['US>Nevada>Atlantis', /no city "Atlantis" in Nevada, US/],
    ['00000', /no US ZIP 00000/],
    ['-170,0,20,10', /spans 190° of longitude; at most 180°/],
    ['10,0,5,10', /west \(10\) must be less than east \(5\)/],
    ['0,10,5,0', /south \(10\) must be below north \(0\)/],
    ['{"type":"Polygon","coordinates":[[[0,0],[1,1],[1,0],[0,1],[0,0]]]}', /crosses itself \(ring 0: edge 0 meets edge 2/],
    ['{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1]]]}', /not closed/],
    ['{"type":"Point","coordinates":[0,0]}', /must be a Polygon or MultiPolygon, got Point/],
    ['{"type":"Polygon"', /not valid JSON/],
    ['', /empty/],
  ];
  for (const [v, re] of cases) assert.match(checkArea(v) ?? 'accepted', re, v);
  // A 10 MB shape is refused by its size before it is parsed.
  const big = JSON.stringify({ type: 'Polygon', coordinates: [Array.from({ length: 1_400_000 }, (_, i) => [i % 180, 0])] });
  assert.ok(big.length > 9e6, `${big.length} bytes`);
  assert.match(checkArea(big)!, /^area is \d+\.\d MB; a shape may be at most 1 MB/);
  // The endpoint's own check leaves the area to submit (src/app/checks.ts, the geo data is not the
  // contract's), and keeps the 500 cap for a query without one.
  assert.equal(mapsSearch.check!({ area: 'XX>Foo' }), undefined);
  assert.match(mapsSearch.check!({ limit: 1000 })!, /at most 500 places unless it has an area/);
  assert.equal(mapsSearch.check!({ limit: 1000, area: 'US>Nevada' }), undefined);
});

test('the submit-time check (no shape built) refuses exactly what resolving refuses', async () => {
  const { locationsFor } = await import('../locations.ts');
  const values: string[] = ['US', 'FR', 'US>90210', '90210', '00000', 'US>00000', 'US>Texas>Harris County', 'US>Texas>Nowhere County',
    'US>Texas>Houston', 'US>Nevada>Atlantis', 'FR>Nowhere', 'DE>Bayern>München', 'a>b>c>d', 'XX', 'US>Vermont>Burlington>x'];
  for (const cc of ['US', 'FR', 'MY', 'BR', 'JP']) {
    const items = locationsFor(cc).items;
    for (let i = 0; i < items.length; i += Math.max(1, Math.floor(items.length / 6))) {
      values.push(items[i]!.value, `${items[i]!.value}x`);
      const city = items[i]!.children[0];
      if (city) values.push(city.value, `${city.value}x`);
    }
  }
  for (const v of values) {
    let resolved: string | undefined;
    try { resolveArea(v); } catch (e) { resolved = (e as Error).message; }
    assert.equal(checkArea(v), resolved, v);
  }
});
