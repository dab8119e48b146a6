/**
 * Buildings (one listing, many units) of `/realestate-search`: `beds`, `baths` and `price` are the
 * smallest or cheapest unit's, and the units' range is kept (`min_beds`..`max_price`,
 * `unit_count`, `is_building`), never null because a rental building writes its units' beds as text.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Value } from '@sinclair/typebox/value';
import { fixtureMissing, fixturePath } from '../_kit/fixtures.ts';
import { realestateSearchRecord } from '../../contract/records/realestate-search.ts';
import { parseCapture } from './capture.ts';
import { countOf, unitRange } from './building.ts';

const listFile = fixturePath('zillow', 'scrapfly_search_listResults_2024-02.json');
const answer = (list: unknown[]) => JSON.stringify({ cat1: { searchResults: { listResults: list, mapResults: [] } } });

test('a rental building of the constructed answer: beds, baths and price of its cheapest unit, and the range', () => {
  const [tower, house] = parseCapture(readFileSync(new URL('./constructed-search-buildings.json', import.meta.url), 'utf8'));
  assert.ok(Value.Check(realestateSearchRecord, tower) && Value.Check(realestateSearchRecord, house));
  assert.deepEqual(
    [tower!.is_building, tower!.beds, tower!.baths, tower!.price, tower!.price_text, tower!.currency, tower!.unit_count],
    [true, 0, 1, 2895, '$2,895+', 'USD', 14],
  );
  assert.deepEqual([tower!.min_beds, tower!.max_beds, tower!.min_baths, tower!.max_baths, tower!.min_price, tower!.max_price], [0, 3, 1, 2.5, 2895, 6100]);
  // A single home has no range.
  assert.deepEqual([house!.is_building, house!.beds, house!.min_beds, house!.max_price], [false, 3, null, null]);
});

test('the real building and community nodes: ranges from their min fields; homes are not buildings', { skip: fixtureMissing(listFile) }, () => {
  const raw = JSON.parse(readFileSync(listFile, 'utf8')) as any[];
  const recs = parseCapture(answer(raw));
  const buildings = recs.filter((r) => r.is_building);
  assert.equal(buildings.length, 6);
  assert.equal(recs.filter((r) => r.is_building === false).length, 381);
  for (const r of buildings) {
    const x = raw[recs.indexOf(r)];
    assert.equal(r.beds, x.minBeds);
    assert.equal(r.min_beds, x.minBeds);
    assert.equal(r.min_baths, x.minBaths);
    // "From" its smallest home: the page states no maximum, so none (never the minimum as the maximum).
    assert.deepEqual([x.maxBeds, x.maxBaths, r.max_beds, r.max_baths], [undefined, undefined, null, null]);
    assert.equal(r.unit_count, x.unitCount);
    assert.ok(r.price !== null && r.min_price === null, 'a "From $X" building states no unit prices');
  }
  const lofton = buildings.find((r) => r.property_id === '29303776')!;
  assert.deepEqual([lofton.beds, lofton.baths, lofton.area_sqft, lofton.price, lofton.unit_count], [2, 3, 1387, 988901, 9]);
  // The same real building as a rental one lists it: units with text counts.
  const node = { ...raw.find((x) => x.plid === '29303776'), price: undefined, minBeds: undefined, minBaths: undefined, unitCount: undefined, units: [{ price: '$3,400+', beds: '2' }, { price: '$2,950+', beds: 'Studio' }, { price: '$4,100+', beds: '3', baths: '2' }] };
  const [r] = parseCapture(answer([node]));
  // Baths stated by one unit of three: the others' are not known, so no range (never that unit's as the building's).
  assert.deepEqual([r!.beds, r!.price, r!.price_text, r!.min_beds, r!.max_beds, r!.min_price, r!.max_price, r!.max_baths, r!.unit_count], [0, 2950, '$2,950+', 0, 3, 2950, 4100, null, 3]);
  // A unit whose price does not read: the price range is unknown, the cheapest listed is no longer the building's price.
  const [p] = parseCapture(answer([{ ...node, units: [{ beds: '2' }, ...node.units.slice(1)] }]));
  assert.deepEqual([p!.min_price, p!.max_price, p!.price, p!.price_text, p!.min_beds], [null, null, null, null, 0]);
  // A unit flagged as an ad is none of the building's: not its cheapest, not counted.
  const [q] = parseCapture(answer([{ ...node, units: [{ price: '$900+', beds: '1', isSponsored: true }, ...node.units] }]));
  assert.deepEqual([q!.min_price, q!.price_text, q!.unit_count], [2950, '$2,950+', 3]);
  // The building's own upper bound there but unreadable: that end unknown, never the lower bound in its place.
  const [m] = parseCapture(answer([{ ...node, units: undefined, minBaths: 1, maxBaths: '' }]));
  assert.deepEqual([m!.min_baths, m!.max_baths], [1, null]);
  // Only the upper bound stated: the lower one is not known either way.
  const [u] = parseCapture(answer([{ ...node, units: undefined, minBeds: undefined, maxBeds: 4 }]));
  assert.deepEqual([u!.min_beds, u!.max_beds], [null, 4]);
  // Without its own id (only the lot's), a building is no record.
  assert.deepEqual(parseCapture(answer([{ ...node, plid: undefined, buildingId: undefined, lotId: 5 }, raw.find((x) => x.zpid)])).map((x) => x.is_building), [false]);
});

test('counts written as text', () => {
  assert.deepEqual(['0', '2', '1.5', 'Studio', ' 3 ', 2, -1, '2+', 'two', null].map(countOf), [0, 2, 1.5, 0, 3, 2, null, null, null, null]);
  assert.equal(unitRange({ zpid: '1', beds: 3 }).is_building, false);
  assert.equal(unitRange({ buildingId: 'x', units: [] }).is_building, true);
});
