import { test } from 'node:test';
import assert from 'node:assert/strict';
import { businessFromPlace } from './from-place.ts';
import { osIdOf } from './os-id.ts';

test('a scraped place keeps its attributes (the true ones of about) and the place it is located in', () => {
  const b = businessFromPlace({
    name: 'Shoe Town', place_id: 'p1', located_in: 'Barton Mall', located_engine_id: 'mall-1',
    about: { Accessibility: { 'Wheelchair accessible entrance': true, 'Wheelchair accessible restroom': false }, 'Service options': { 'In-store pickup': true } },
  }, '/maps/search')!;
  assert.deepEqual(b.attributes, ['Wheelchair accessible entrance', 'In-store pickup']);
  assert.equal(b.located_in, 'Barton Mall');
  assert.equal(b.located_os_id, osIdOf('engine', 'mall-1'));
  const bare = businessFromPlace({ name: 'Plain', place_id: 'p2', about: null }, '/maps/search')!;
  assert.deepEqual([bare.attributes, bare.located_in, bare.located_os_id], [[], null, null]);
});

test('attributes come in the order about lists them, each once, trimmed', () => {
  const b = businessFromPlace({
    name: 'Twice', place_id: 'p3',
    about: { A: { ' Dine-in ': true, Takeout: true, Delivery: false }, B: { 'Dine-in': true, '  ': true, Wifi: true }, C: null, D: 'text', E: ['x'] },
  }, '/maps/search')!;
  assert.deepEqual(b.attributes, ['Dine-in', 'Takeout', 'Wifi']);
});

test('an os_id is the same hash it always was (stored ids must not move)', () => {
  assert.equal(osIdOf('place', 'ChIJN1t_tDeuEmsRUsoyG83frY4'), 'bz_f9a757fd12c730b1ef260c64');
  assert.equal(osIdOf('osm', 'node/123'), 'bz_84c8974884fd56509c797cc5');
  assert.equal(osIdOf('engine', '0x14a1a32f316b15a1:0x169c54b46dcc3a93'), 'bz_9e0d956a8e7613c3d8dcdc38');
  assert.equal(osIdOf('place', 'καφές'), 'bz_795f1ec419b4db3f3990da9b');
});
