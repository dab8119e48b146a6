/**
 * `parseCapture` of both folders: detects the response kind of a saved file and refuses what the
 * endpoint does not understand with a clear message.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCapture as placeCapture } from '../_maps/place-capture.ts';
import { EL, EN, HTML, SEARCH, fixture, missing } from '../_maps/test-support.ts';
import { parseCapture } from './capture.ts';
import { adapter } from './adapter.ts';
import { source } from './index.ts';
import { placeRecordFields } from './record.ts';

test('maps-search parseCapture: search JSON, place JSON and place HTML, prefix or not', { skip: missing(SEARCH) || missing(EN) || missing(EL) || missing(HTML) }, () => {
  assert.equal(parseCapture(fixture(SEARCH)).length, 20);
  assert.equal(parseCapture(")]}'\n" + fixture(SEARCH)).length, 20);
  assert.equal(parseCapture(fixture(EN))[0].name, 'Kipriakon');
  assert.equal(parseCapture(")]}'\n" + fixture(EL))[0].name, 'Κυπριακόν');
  assert.equal(parseCapture(fixture(HTML))[0].name, 'Tipsy Sticks');
});

test('maps-place parseCapture: place kinds only', { skip: missing(SEARCH) || missing(EN) || missing(HTML) }, () => {
  assert.equal(placeCapture(fixture(EN))[0].place_id, 'ChIJDdnwdv0y5xQRRytw1ihZQeU');
  assert.equal(placeCapture(fixture(HTML))[0].place_id, 'ChIJuVkmvYYX3hQR2536Jljm9rc');
  assert.throws(() => placeCapture(fixture(SEARCH)), /not a place-details body.*\/maps\/search/);
});

test('parseCapture refuses other files with a clear message', () => {
  assert.throws(() => parseCapture(''), /capture is empty/);
  assert.throws(() => parseCapture('hello'), /neither HTML nor JSON/);
  assert.throws(() => parseCapture('{"reviews": []}'), /neither a map search body .* nor a place-details body/);
  assert.throws(() => parseCapture('[[1,2,3]]'), /neither a map search body/);
  assert.throws(() => parseCapture('<html><body>consent</body></html>'), /not a map place page/);
  assert.throws(() => placeCapture('[1]'), /not a place-details body/);
  assert.deepEqual(parseCapture('[["coffee"]]'), []);
});

test('the registry row loads the adapter and the capture parser; the field list', async () => {
  assert.equal(await source.adapter(), adapter);
  assert.equal(await source.capture!.parse(), parseCapture);
  assert.equal(adapter.endpoint, '/maps/search');
  assert.equal(adapter.kind, 'web');
  assert.equal(placeRecordFields.length, 54);
  assert.equal(placeRecordFields[0], 'query');
  assert.equal(placeRecordFields.at(-1), 'owner_title');
});
