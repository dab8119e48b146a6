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
