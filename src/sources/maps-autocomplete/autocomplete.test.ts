import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FetchedResponse } from '../_kit/adapter.ts';
import { isSourceError } from '../_kit/errors.ts';
import { adapter as mapsAutocomplete } from './adapter.ts';
import { parseCapture } from './capture.ts';
import { cameraOf, viewHeightMetres } from './plan.ts';
import type { AutocompleteParams } from './record.ts';

const sample = JSON.parse(readFileSync(fileURLToPath(new URL('./constructed-autocomplete.json', import.meta.url)), 'utf8')).body;
const bare = ")]}'\n" + JSON.stringify(sample);
const envelope = JSON.stringify({ c: 0, d: ")]}'\n" + JSON.stringify(sample), u: 'https://www.google.com/s?q={x}' }) + '/*""*/{"c":0,"d":"","e":"tok"}';
const res = (body: string): FetchedResponse => ({ status: 200, url: 'https://www.google.com/s', headers: {}, body });
const ctx = (params: AutocompleteParams = {}, query = 'pizza te') => ({ query, params });

test('plan: suggest URL with camera pb from coordinates (default, first of the list), language, region', () => {
  const [d] = mapsAutocomplete.plan(ctx());
  assert.equal(d.kind, 'suggest');
  assert.match(d.url, /^https:\/\/www\.google\.com\/s\?tbm=map&gs_ri=maps&suggest=p&authuser=0&hl=en&pb=!2i10!4m12!1m3!1d[\d.]+!2d53\.9623381!3d23\.4933124!2m3!1f0!2f0!3f0!3m2!1i1024!2i768!4f13\.1!7i20!10b1&q=pizza%20te$/);
  const [s] = mapsAutocomplete.plan(ctx({ coordinates: ['@40.7,-74,12z', '@1,1,3z'], language: 'de', region: 'DE' }));
  assert.match(s.url, /&hl=de&gl=de&pb=!2i10!4m12!1m3!1d[\d.]+!2d-74!3d40\.7!/);
  assert.deepEqual(cameraOf({ coordinates: ['@40.7,-74,12z'] }), { lat: 40.7, lng: -74, zoom: 12 });
  assert.ok(Math.abs(viewHeightMetres({ lat: 0, lng: 0, zoom: 10 }) - 117407.28) < 0.1);
  assert.throws(() => mapsAutocomplete.plan(ctx({ coordinates: ['nowhere'] })), (e) => isSourceError(e) && e.type === 'invalid_query');
  assert.throws(() => mapsAutocomplete.plan(ctx({}, '  ')), (e) => isSourceError(e) && e.type === 'invalid_query');
  assert.equal(mapsAutocomplete.checkQuery!(''), 'query is empty: give the text typed so far');
});

test('constructed answer: place, query and address rows, both wrappings', () => {
  const [step] = mapsAutocomplete.plan(ctx());
  for (const body of [bare, envelope]) {
    const { records } = mapsAutocomplete.parse(step, res(body), ctx());
    assert.equal(records.length, 3);
    const [p, q, a] = records;
    assert.deepEqual(p, {
      query: 'pizza te', suggestion: 'Pizza Testaccio, 1 Example Way, Testville', type: 'place', name: 'Pizza Testaccio',
      address: '1 Example Way, Testville', engine_id: '0x89c2590000000001:0x00000000000abcde', place_id: 'ChIJconstructedPlaceId01',
      cid: '703710', latitude: 40.7001, longitude: -73.9901,
    });
    assert.deepEqual([q.type, q.suggestion, q.name, q.address, q.engine_id, q.latitude], ['query', 'pizza testville', null, null, null, null]);
    assert.deepEqual([a.type, a.name, a.address, a.engine_id, a.latitude, a.longitude], ['place', 'Testerton Ave', 'Testville, NY', null, 40.71, -73.98]);
  }
});

test('empty, foreign, truncated and reordered answers', () => {
  const [step] = mapsAutocomplete.plan(ctx());
  assert.deepEqual(mapsAutocomplete.parse(step, res(")]}'\n[[\"zzzz\",[]]]"), ctx()).records, []);
  assert.deepEqual(mapsAutocomplete.parse(step, res(")]}'\n[[\"zzzz\"]]"), ctx()).records, []);
  for (const body of ['', '<html>consent</html>', '{"c":0}', '[1,2]', bare.slice(0, bare.length - 7), envelope.slice(0, 60)]) {
    assert.throws(() => mapsAutocomplete.parse(step, res(body), ctx()), (e) => isSourceError(e) && e.type === 'layout_changed', body.slice(0, 30));
  }
  // Reordered rows and blocks moved to another index still parse; a damaged block is a null field.
  const moved = JSON.parse(JSON.stringify(sample));
  moved[0][1].reverse();
  const blk = moved[0][1][3].pop();
  moved[0][1][3].unshift(blk);
  moved[0][1][3][0][11] = 'unexpected';
  const r = mapsAutocomplete.parse(step, res(JSON.stringify(moved)), ctx()).records;
  assert.equal(r.length, 3);
  const place = r.find((x) => x.engine_id)!;
  assert.equal(place.latitude, 40.7001); // falls back to the place's own lat/lng
  assert.throws(() => parseCapture('hello'), /expected a suggest answer/);
  assert.equal(parseCapture(envelope).length, 3);
});

test('a slot that moved or a half-read coordinate: fields lost, never another row\'s kind or the wrong slot read', () => {
  const [step] = mapsAutocomplete.plan(ctx());
  const third = (change: (block: any[]) => void) => {
    const doc = structuredClone(sample);
    change(doc[0][1][2][22]);
    return mapsAutocomplete.parse(step, res(JSON.stringify(doc)), ctx()).records[2]!;
  };
  // Name and address slots swapped: the "name" is not a part of the suggestion text.
  const swapped = third((b) => ([b[1], b[2]] = [b[2], b[1]]));
  assert.deepEqual([swapped.type, swapped.name, swapped.address, swapped.latitude], ['place', null, null, 40.71]);
  // One coordinate emptied: still a place, no half pair.
  const half = third((b) => (b[11][2] = null));
  assert.deepEqual([half.type, half.name, half.address, half.latitude, half.longitude], ['place', 'Testerton Ave', 'Testville, NY', null, null]);
});

test('slots that moved: swapped text and name drop the row, a name slot that does not read is null, coordinates in another slot keep a place a place', () => {
  const rows = () => structuredClone(sample) as any;
  const at = (d: any) => parseCapture(")]}'\n" + JSON.stringify(d));
  const base = at(sample);
  const swapped = rows();
  const b0 = swapped[0][1][0][22];
  [b0[0], b0[1]] = [b0[1], b0[0]];
  assert.deepEqual(at(swapped).map((r) => r.suggestion), base.slice(1).map((r) => r.suggestion));
  const wrapped = rows();
  wrapped[0][1][0][22][1] = [wrapped[0][1][0][22][1]];
  assert.deepEqual([at(wrapped)[0]!.name, at(wrapped)[0]!.suggestion], [null, base[0]!.suggestion]);
  const moved = rows();
  const b2 = moved[0][1][2][22];
  [b2[10], b2[11]] = [b2[11], b2[10]];
  const street = at(moved)[2]!;
  assert.deepEqual([street.type, street.name, street.latitude], ['place', base[2]!.name, null]);
});

test('name and address slots swapped: the address does not start the text, so neither is read', () => {
  const d = structuredClone(sample) as any;
  const b = d[0][1][0][22];
  [b[1], b[2]] = [b[2], b[1]];
  const [r] = parseCapture(")]}'\n" + JSON.stringify(d));
  assert.deepEqual([r!.suggestion, r!.name, r!.address], ['Pizza Testaccio, 1 Example Way, Testville', null, null]);
});
