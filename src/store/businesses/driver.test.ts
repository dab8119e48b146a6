import { test } from 'node:test';
import assert from 'node:assert/strict';
import { driverOf } from './driver.ts';
import type { BusinessQuery } from './contract.ts';

const d = (x: Partial<BusinessQuery>) => driverOf({ accountId: 'a', limit: 10, ...x });

test('driver: chosen by which filters are present, in a fixed order, with the values as stored', () => {
  assert.deepEqual(d({}), { kind: 'table' });
  assert.deepEqual(d({ osIds: ['x'], geo: [{ type: 'circle', lat: 1, lng: 2, radius_m: 3 }] }), { kind: 'ids' });
  assert.deepEqual(d({ geo: [{ type: 'circle', lat: 1, lng: 2, radius_m: 3 }], name: 'golden' }), { kind: 'geo' });
  assert.deepEqual(d({ name: ' Golden ', cities: ['Paris'] }), { kind: 'name', pattern: 'golden' });
  assert.deepEqual(d({ name: 'go', cities: ['Paris'] }), { kind: 'column', column: 'city_k', value: 'paris' }, 'a short name is no trigram walk');
  assert.deepEqual(d({ name: 'golden', nameExclude: true }), { kind: 'table' });
  assert.deepEqual(d({ domain: 'https://WWW.Example.com/x', cities: ['Paris'] }), { kind: 'column', column: 'domain', value: 'example.com' });
  assert.deepEqual(d({ cities: ['Paris'], types: ['Cafe'] }), { kind: 'column', column: 'city_k', value: 'paris' });
  assert.deepEqual(d({ cities: ['Paris', 'Lyon'], types: ['Cafe'], countryCode: 'fr' }), { kind: 'type', type: 'cafe' });
  assert.deepEqual(d({ types: ['Cafe'], broadMatch: true, countryCode: 'fr' }), { kind: 'column', column: 'country_code', value: 'FR' });
  assert.deepEqual(d({ locatedIn: ['bz_mall'], types: ['cafe'] }), { kind: 'column', column: 'located_k', value: 'bz_mall' });
  assert.deepEqual(d({ states: ['Texas'], countryCode: 'us' }), { kind: 'column', column: 'state_k', value: 'texas' });
  assert.deepEqual(d({ counties: ['Travis'], countryCode: 'us' }), { kind: 'column', column: 'county_k', value: 'travis' });
  assert.deepEqual(d({ types: ['a', 'b'], rating: { min: 4 } }), { kind: 'table' });
});
