import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkCoordinates, parseCoordinates } from './coordinates.ts';
import { isSourceError } from '../../sources/_kit/errors.ts';

test('accepts "<lat> <lng>", "<lat>,<lng>" and "<lat>, <lng>"', () => {
  assert.deepEqual(parseCoordinates('40.7624284 -73.973794'), { lat: 40.7624284, lng: -73.973794 });
  assert.deepEqual(parseCoordinates('48.8584,2.2945'), { lat: 48.8584, lng: 2.2945 });
  assert.deepEqual(parseCoordinates('-33.8568, 151.2153'), { lat: -33.8568, lng: 151.2153 });
  assert.deepEqual(parseCoordinates('  1.5   ,   -2  '), { lat: 1.5, lng: -2 });
  assert.deepEqual(parseCoordinates('+10.25\t20'), { lat: 10.25, lng: 20 });
  assert.deepEqual(parseCoordinates('.5 -.5'), { lat: 0.5, lng: -0.5 });
  assert.deepEqual(parseCoordinates('7. 8.'), { lat: 7, lng: 8 });
});

test('accepts the exact bounds and treats -0 as 0', () => {
  assert.deepEqual(parseCoordinates('90,180'), { lat: 90, lng: 180 });
  assert.deepEqual(parseCoordinates('-90 -180'), { lat: -90, lng: -180 });
  const z = parseCoordinates('-0,-0');
  assert.ok(Object.is(z.lat, 0) && Object.is(z.lng, 0));
  assert.equal(checkCoordinates('0,0'), undefined);
});

test('latitude and longitude out of range get a message naming each', () => {
  const m = checkCoordinates('91,200');
  assert.ok(m);
  assert.match(m, /^query "91,200" is not a coordinate pair: /);
  assert.match(m, /latitude must be from -90 to 90, got 91/);
  assert.match(m, /longitude must be from -180 to 180, got 200/);
  assert.match(checkCoordinates('-90.0001 0')!, /latitude must be from -90 to 90, got -90.0001$/);
  assert.match(checkCoordinates('0 180.5')!, /^[^;]*longitude must be from -180 to 180, got 180.5$/);
});

test('things that are not two decimal numbers are refused with the expected form', () => {
  for (const q of ['', ' ', 'abc', '40.7', '40.7,', ',40.7', '1 2 3', '1,2,3', '40,7 -73,9', '1e2 3', 'NaN NaN',
    'Infinity 0', '0x10 5', '40.7;-73.9', '40.7°N 73.9°W', '1..2 3', '--1 2', '1 2x']) {
    const m = checkCoordinates(q);
    assert.ok(m, `should refuse ${JSON.stringify(q)}`);
    assert.match(m, /is not a coordinate pair: expected "<latitude> <longitude>" or "<latitude>,<longitude>"/);
  }
});

test('a very long query is refused quickly and quoted shortened', () => {
  const q = `${'1'.repeat(100_000)} 2`;
  const t = performance.now();
  const m = checkCoordinates(q);
  assert.ok(performance.now() - t < 50);
  assert.ok(m && m.length < 200, m);
});

test('parseCoordinates throws SourceError invalid_query with the same message', () => {
  assert.throws(
    () => parseCoordinates('91,0'),
    (e: unknown) => isSourceError(e) && e.type === 'invalid_query' && e.message === checkCoordinates('91,0'),
  );
});
