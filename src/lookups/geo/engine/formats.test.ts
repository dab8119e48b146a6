import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseReverse, reverseUrl } from './formats.ts';
import { streetLine } from './address.ts';
import { mergeEngine } from './merge.ts';
import type { ReverseGeocodingRecord } from '../record.ts';
import {
  constructedNominatim,
  constructedNominatimNothing,
  constructedPelias,
  constructedPhoton,
  constructedPhotonNothing,
  constructedPhotonStreet,
} from './constructed-samples.ts';

test('reverse URLs follow each engine\'s documented endpoint; a path prefix is kept', () => {
  assert.equal(reverseUrl('nominatim', 'http://h:8080/', 40.5, -73.25), 'http://h:8080/reverse?format=jsonv2&lat=40.5&lon=-73.25&addressdetails=1');
  assert.equal(reverseUrl('photon', 'http://h/photon', 52.5, 13.4), 'http://h/photon/reverse?lat=52.5&lon=13.4&limit=1');
  assert.equal(reverseUrl('pelias', 'https://h', -33.8, 151.2), 'https://h/v1/reverse?point.lat=-33.8&point.lon=151.2&size=1');
});

test('nominatim jsonv2 maps onto the engine address', () => {
  assert.deepEqual(parseReverse('nominatim', constructedNominatim), {
    road: 'West 52nd Street',
    house_number: '51',
    postal_code: '10019',
    city: 'New York',
    county: 'New York County',
    state: 'New York',
    country_code: 'US',
  });
  assert.equal(parseReverse('nominatim', constructedNominatimNothing), null);
  const village = { address: { village: 'Claflin', state: 'Kansas', country_code: 'us' } };
  assert.equal(parseReverse('nominatim', village)?.city, 'Claflin');
});

test('photon GeoJSON maps onto the engine address, including a street-only answer', () => {
  assert.deepEqual(parseReverse('photon', constructedPhoton), {
    road: 'Pariser Platz',
    house_number: '1',
    postal_code: '10117',
    city: 'Berlin',
    county: 'Berlin',
    state: 'Berlin',
    country_code: 'DE',
  });
  const street = parseReverse('photon', constructedPhotonStreet)!;
  assert.equal(street.road, 'Avenue Anatole France');
  assert.equal(street.house_number, null);
  assert.equal(parseReverse('photon', constructedPhotonNothing), null);
});

test('pelias maps onto the engine address; ISO alpha-3 country becomes alpha-2', () => {
  assert.deepEqual(parseReverse('pelias', constructedPelias), {
    road: 'Macquarie Street',
    house_number: '2',
    postal_code: '2000',
    city: 'Sydney',
    county: 'Sydney',
    state: 'New South Wales',
    country_code: 'AU',
  });
});

test('shapes that are not the documented ones give null, never a throw', () => {
  for (const kind of ['nominatim', 'photon', 'pelias'] as const) {
    for (const body of [null, 42, 'text', [], {}, { features: 'x' }, { features: [null] }, { features: [{ properties: [] }] }, { address: 'x' }]) {
      assert.equal(parseReverse(kind, body), null, `${kind} ${JSON.stringify(body)}`);
    }
  }
  // Wrong types inside are dropped field by field.
  assert.deepEqual(parseReverse('photon', { features: [{ properties: { street: 7, postcode: ['x'], city: '  ', countrycode: 'Germany' } }] }), {
    road: '7', house_number: null, postal_code: null, city: null, county: null, state: null, country_code: null,
  });
});

test('street line order follows the country', () => {
  assert.equal(streetLine({ road: 'West 52nd Street', house_number: '51' }, 'US'), '51 West 52nd Street');
  assert.equal(streetLine({ road: 'Pariser Platz', house_number: '1' }, 'DE'), 'Pariser Platz 1');
  assert.equal(streetLine({ road: 'Main St', house_number: null }, 'US'), 'Main St');
  assert.equal(streetLine({ road: null, house_number: '5' }, 'US'), null);
});

const OFFLINE: ReverseGeocodingRecord = {
  query: '40.7624284,-73.973794',
  address: 'Manhattan, New York 10151, United States',
  city: 'Manhattan',
  country_code: 'US',
  county: 'New York County',
  photo: null,
  plus_code: '87G8Q26G+XF',
  postal_code: '10151',
  state: 'New York',
  street: null,
  time_zone: 'America/New_York',
};

test('merge: engine wins for street and postal_code, fills only null offline fields', () => {
  const merged = mergeEngine(OFFLINE, parseReverse('nominatim', constructedNominatim)!);
  assert.deepEqual(merged, {
    ...OFFLINE,
    street: '51 West 52nd Street',
    postal_code: '10019',
    address: '51 West 52nd Street, Manhattan, New York 10019, United States',
  });
  assert.equal(OFFLINE.street, null, 'input untouched');
  const sparse = { ...OFFLINE, city: null, county: null, postal_code: null };
  const filled = mergeEngine(sparse, { road: null, house_number: null, postal_code: null, city: 'New York', county: 'X County', state: 'Y', country_code: 'CA' });
  assert.equal(filled.city, 'New York');
  assert.equal(filled.county, 'X County');
  assert.equal(filled.state, 'New York');
  assert.equal(filled.country_code, 'US');
  assert.equal(filled.postal_code, null);
  assert.equal(filled.street, null);
});
