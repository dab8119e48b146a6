import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadReverseGeocoder } from '../reverse.ts';
import { MEASURED, pct, readTruth, score, truthTable, type Miss } from './measure.ts';

const geo = await loadReverseGeocoder();
const points = readTruth();
const reverse = (lat: number, lng: number) => geo.reverse(lat, lng);
const misses: Miss[] = [];
const all = score(points, reverse, misses);
const tuning = score(points.filter((p) => p.split === 'tuning'), reverse);
const heldOut = score(points.filter((p) => p.split === 'held_out'), reverse);

test('the truth set: at least 200 points, worldwide, half held out, every field measured', () => {
  assert.ok(points.length >= 200, `${points.length} points`);
  assert.ok(new Set(points.map((p) => p.country)).size >= 50, 'countries');
  assert.equal(points.filter((p) => p.split === 'held_out').length, points.length / 2);
  for (const f of MEASURED) assert.ok(all[f].right + all[f].wrong + all[f].null >= 50, `${f} measured on too few points`);
});

test('no field gives a wrong value on more than 1 % of the points (each half too)', () => {
  for (const [name, s] of Object.entries({ all, tuning, heldOut })) {
    for (const f of MEASURED) {
      assert.ok(pct(s[f].wrong, s[f]) <= 1, `${name} ${f}: ${s[f].wrong} wrong of ${s[f].right + s[f].wrong + s[f].null}; ${JSON.stringify(misses.filter((m) => m.field === f))}`);
    }
  }
});

test('the city is right on at least 98 % of the points (each half too)', () => {
  for (const [name, s] of Object.entries({ all, tuning, heldOut })) assert.ok(pct(s.city.right, s.city) >= 98, `${name}: ${JSON.stringify(s.city)}`);
});

test('docs/lookups-geo.md publishes the table as measured now', () => {
  const doc = readFileSync(new URL('../../../../docs/lookups-geo.md', import.meta.url), 'utf8');
  const table = truthTable({ tuning, held_out: heldOut, all });
  assert.ok(doc.includes(table), `docs/lookups-geo.md should contain:\n${table}`);
});

test('a wrong value is caught: a geocoder that answers the neighbour town fails the bar', () => {
  // The same points through a geocoder that swaps every city for the next point's: the bar fails.
  const swapped = score(points, (lat, lng) => {
    const r = geo.reverse(lat, lng);
    const i = points.findIndex((p) => p.lat === lat && p.lng === lng);
    return { ...r, city: points[(i + 1) % points.length].cities[0] ?? r.city };
  });
  assert.ok(pct(swapped.city.wrong, swapped.city) > 1);
});
