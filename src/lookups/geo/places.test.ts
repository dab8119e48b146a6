import { CurrentCodes } from './admin-codes.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bestCity, cityScore, loadPlaces, nearestPlace } from './places.ts';
import { distanceKm, forEachWithin } from './nearby.ts';
import { forEachRow, num, text, fieldIs } from './tsv.ts';
import type { AdminNames } from './admin-names.ts';

// A constructed cities500-format file (19 tab-separated columns), not GeoNames data.
const row = (id: number, name: string, lat: number, lng: number, code: string, cc: string, a1: string, a2: string, pop: number) =>
  [id, name, name, '', lat, lng, 'P', code, cc, '', a1, a2, '', '', pop, '', '', 'Etc/UTC', '2020-01-01'].join('\t');
const CONSTRUCTED = [
  row(1, 'Bigtown', 10, 10, 'PPLC', 'AA', '01', '001', 2_000_000),
  row(2, 'Suburb', 10.03, 10.03, 'PPL', 'AA', '01', '002', 20_000),
  row(3, 'Downtown', 10.001, 10.001, 'PPLX', 'AA', '01', '001', 50_000), // neighbourhood: dropped
  row(4, 'Ghost', 10.0005, 10.0005, 'PPLQ', 'AA', '01', '001', 0), // abandoned: dropped
  row(5, 'Bordervillage', 10.05, 9.95, 'PPL', 'BB', '07', '', 600),
  row(6, 'Eastisle', -16.8, 179.99, 'PPL', 'FJ', '03', '', 900),
  row(7, 'Westisle', -16.8, -179.99, 'PPL', 'FJ', '03', '', 800),
  '', // blank line
  'short\trow',
].join('\r\n');
const NAMES: AdminNames = {
  admin1: new Map([['AA.01', 'Region One'], ['BB.07', 'Seven'], ['FJ.03', 'Northern']]),
  admin2: new Map([['AA.01.001', 'District A'], ['AA.01.002', 'District B']]),
};

const dir = mkdtempSync(join(tmpdir(), 'geo-places-'));
const file = join(dir, 'constructed-cities500.txt');
writeFileSync(file, CONSTRUCTED);
const places = loadPlaces(NAMES, file, new CurrentCodes(null));
rmSync(dir, { recursive: true });
const id = (name: string) => places.name.indexOf(name);

test('loader drops neighbourhoods, vanished places and malformed rows; resolves admin names', () => {
  assert.deepEqual(places.name, ['Bigtown', 'Suburb', 'Bordervillage', 'Eastisle', 'Westisle']);
  assert.equal(places.admin1Name[id('Suburb')], 'Region One');
  assert.equal(places.admin2Name[id('Suburb')], 'District B');
  assert.equal(places.admin2Name[id('Bordervillage')], null);
  assert.equal(places.population[id('Bigtown')], 2_000_000);
  assert.equal(places.country[id('Eastisle')], 'FJ');
});

test('the big town wins over a closer suburb; beyond 30 km it is not a candidate', () => {
  // At the suburb's doorstep the 2M town is 4.7 km away: 6.30 - 1.56 = 4.74 beats 4.30 - 0.
  assert.ok(cityScore(2_000_000, 4.7) > cityScore(20_000, 0));
  assert.equal(places.name[bestCity(places, 10.03, 10.03, 30)!], 'Bigtown');
  // At 10.2,10.2 the town is 31 km away (out of range), the suburb 26.5 km.
  assert.ok(distanceKm(10.2, 10.2, 10, 10) > 30);
  assert.equal(places.name[bestCity(places, 10.2, 10.2, 30)!], 'Suburb');
  assert.equal(bestCity(places, 50, 50, 30), undefined);
});

test('filters keep answers inside the country even when a foreign place is nearer', () => {
  const inAA = (i: number) => places.country[i] === 'AA';
  assert.equal(places.name[nearestPlace(places, 9.95, 10.05, 100)!], 'Bordervillage');
  assert.equal(places.name[nearestPlace(places, 9.95, 10.05, 100, inAA)!], 'Bigtown');
  assert.equal(nearestPlace(places, 9.95, 10.05, 100, () => false), undefined);
});

test('searches cross the antimeridian', () => {
  assert.equal(places.name[nearestPlace(places, -179.999, -16.8, 20)!], 'Westisle');
  assert.equal(places.name[nearestPlace(places, 179.999, -16.8, 20)!], 'Eastisle');
  const seen: string[] = [];
  forEachWithin(places.index, places, 180, -16.8, 10, (i) => seen.push(places.name[i]));
  assert.deepEqual(seen.sort(), ['Eastisle', 'Westisle']);
});

test('distanceKm is the great-circle distance', () => {
  assert.ok(Math.abs(distanceKm(0, 0, 1, 0) - 111.195) < 0.01);
  assert.ok(Math.abs(distanceKm(2.2945, 48.8584, 2.3522, 48.8566) - 4.23) < 0.05);
  assert.ok(Math.abs(distanceKm(179.5, 0, -179.5, 0) - 111.195) < 0.01);
});

test('tsv reader: fields, numbers, CRLF and short rows', () => {
  const rows: string[][] = [];
  forEachRow(Buffer.from('a\t-12.50\tx\r\n\nb\t7\n\tc'), 3, (r) => {
    rows.push([text(r, 0), String(num(r, 1)), String(fieldIs(r, 2, 'x')), String(r.count)]);
  });
  assert.deepEqual(rows, [
    ['a', '-12.5', 'true', '3'],
    ['b', '7', 'false', '2'],
    ['', 'NaN', 'false', '2'],
  ]);
  forEachRow(Buffer.from('1.\t.5\t+3\t1e5\t-\t42.57688'), 6, (r) => {
    assert.deepEqual([0, 1, 2, 3, 4, 5].map((i) => num(r, i)), [1, 0.5, 3, NaN, NaN, 42.57688]);
  });
});
