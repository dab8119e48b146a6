/**
 * OSM tags → attributes on a constructed object (the real extracts carry few such tags: see
 * osm-import.test.ts), and a search by the attributes filter and by the natural-language query finding
 * an imported place beside a scraped one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attributesFromOsm } from './osm-attributes.ts';
import { businessFromOsm } from './osm-business.ts';
import { businessFromPlace } from '../store/businesses/from-place.ts';
import { openSqliteStore } from '../store/sqlite/store.ts';
import { businessStoreOf } from '../store/businesses/index.ts';
import { OPEN_DATA } from '../store/businesses/contract.ts';
import { parseQuery } from './query/parse.ts';

test('constructed-cafe: every mapped tag, in the names scraped places carry', () => {
  const tags = {
    name: 'Constructed Café', amenity: 'cafe', internet_access: 'wlan', 'internet_access:fee': 'no', wheelchair: 'yes', 'toilets:wheelchair': 'yes',
    toilets: 'yes', outdoor_seating: 'yes', indoor_seating: 'yes', takeaway: 'only', delivery: 'yes', drive_through: 'yes', reservation: 'required',
    'payment:credit_cards': 'yes', 'payment:debit_cards': 'yes', 'payment:contactless': 'yes', dog: 'leashed', highchair: 'yes', changing_table: 'yes',
    lgbtq: 'welcome', 'diet:vegan': 'only', 'diet:vegetarian': 'yes', smoking: 'no', air_conditioning: 'yes',
  };
  assert.deepEqual(businessFromOsm('node', 1, tags, 43.7, 7.4)!.attributes, [
    'Wi-Fi', 'Wheelchair accessible entrance', 'Wheelchair accessible restroom', 'Restroom', 'Outdoor seating', 'Dine-in', 'Takeout', 'Delivery',
    'Drive-through', 'Accepts reservations', 'Reservations required', 'Credit cards', 'Debit cards', 'NFC mobile payments', 'Dogs allowed',
    'High chairs', 'Changing table', 'LGBTQ+ friendly', 'Vegan options', 'Vegetarian options', 'No smoking', 'Air conditioning', 'Free Wi-Fi',
  ]);
});

test('values: only what a place has; lists match on any value; limited access is its own attribute', () => {
  const none = { internet_access: 'no', wheelchair: 'no', outdoor_seating: 'no', takeaway: 'no', delivery: 'no', drive_through: 'no', reservation: 'no',
    'payment:credit_cards': 'no', dog: 'no', smoking: 'yes', air_conditioning: 'no', toilets: 'no' };
  assert.deepEqual(attributesFromOsm(none), []);
  assert.deepEqual(attributesFromOsm({ internet_access: 'terminal' }), [], 'a computer to use is not Wi-Fi');
  assert.deepEqual(attributesFromOsm({ internet_access: 'wlan', 'internet_access:fee': 'customers' }), ['Wi-Fi'], 'not free for all');
  assert.deepEqual(attributesFromOsm({ internet_access: 'wired;wlan' }), ['Wi-Fi']);
  assert.deepEqual(attributesFromOsm({ wheelchair: 'limited' }), ['Limited wheelchair access']);
  assert.deepEqual(attributesFromOsm({ wheelchair: 'designated', reservation: 'recommended', dog: 'outside', outdoor_seating: 'terrace' }),
    ['Wheelchair accessible entrance', 'Outdoor seating', 'Accepts reservations', 'Dogs allowed outside']);
  assert.deepEqual(attributesFromOsm({ 'payment:apple_pay': 'yes', 'payment:google_pay': 'yes' }), ['NFC mobile payments'], 'once');
  assert.deepEqual(attributesFromOsm({ takeaway: 'Yes' }), ['Takeout'], 'values case-insensitive');
  assert.deepEqual(businessFromOsm('node', 2, { name: 'Plain', shop: 'bakery' }, 1, 1)!.attributes, []);
});

test('an imported and a scraped place are found by the same attributes filter and the same query', async () => {
  const s = await openSqliteStore(':memory:');
  try {
    const db = businessStoreOf(s);
    const osm = businessFromOsm('node', 3, { name: 'Osm Cafe', amenity: 'cafe', internet_access: 'wlan', outdoor_seating: 'yes', 'addr:city': 'Austin' }, 30.27, -97.74)!;
    // A scraped place's attributes are its `about` entries marked true, as the map captures give them.
    const scraped = businessFromPlace({ name: 'Map Cafe', place_id: 'constructed-map-cafe', type: 'Coffee shop', city: 'Austin',
      about: { 'Service options': { 'Outdoor seating': true, Takeout: true }, Amenities: { 'Wi-Fi': true } } }, '/maps/search')!;
    const plain = businessFromOsm('node', 4, { name: 'Plain Cafe', amenity: 'cafe', 'addr:city': 'Austin' }, 30.27, -97.74)!;
    await db.upsertBusinesses(OPEN_DATA, [osm, scraped, plain], Date.now());
    const names = async (attributes: string[]) => (await db.searchBusinesses({ accountId: 'a', attributes, limit: 10 })).items.map((b) => b.name).sort();
    assert.deepEqual(await names(['Wi-Fi']), ['Map Cafe', 'Osm Cafe']);
    const q = parseQuery('cafes in austin with wifi and outdoor seating');
    assert.deepEqual(q.notUnderstood, []);
    assert.deepEqual(q.filters.attributes, ['Wi-Fi', 'Outdoor seating']);
    const found = await db.searchBusinesses({ accountId: 'a', types: q.filters.types, cities: q.filters.cities, attributes: q.filters.attributes, limit: 10 });
    assert.deepEqual(found.items.map((b) => b.name).sort(), ['Map Cafe', 'Osm Cafe']);
    assert.deepEqual(await names(parseQuery('takeout').filters.attributes!), ['Map Cafe']);
  } finally { await s.close(); }
});
