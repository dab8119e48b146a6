/**
 * OSM import on the real extracts of ../shared/fixtures/osm (Monaco XML gz, Andorra PBF; ODbL,
 * © OpenStreetMap contributors): points of interest from nodes and ways, inside the region, searchable
 * (by attributes too), and a re-run that updates every row and adds none.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openSqliteStore } from '../store/sqlite/store.ts';
import { businessStoreOf } from '../store/businesses/index.ts';
import { importOsm } from './osm-import.ts';
import { businessFromOsm } from './osm-business.ts';
import { parseQuery } from './query/parse.ts';

const dir = join(process.env.FIXTURES_DIR ?? '../shared/fixtures', 'osm');
const skip = existsSync(join(dir, 'monaco.osm.gz')) ? false : `OSM fixtures not found in ${dir} (set FIXTURES_DIR)`;

test('Monaco (XML gz) and Andorra (PBF): POIs inside their region, ways by centroid, idempotent re-run', { skip, timeout: 60_000 }, async () => {
  const s = await openSqliteStore(':memory:');
  try {
    const mc = await importOsm(s, join(dir, 'monaco.osm.gz'), { country: 'MC' });
    assert.ok(mc.objects > 10_000 && mc.businesses > 50, JSON.stringify(mc));
    assert.equal(mc.added, mc.businesses);
    const ad = await importOsm(s, join(dir, 'andorra.osm.pbf'), { country: 'AD' });
    assert.ok(ad.objects > 50_000 && ad.businesses > 100, JSON.stringify(ad));
    const db = businessStoreOf(s);
    const all = async (countryCode: string) => (await db.searchBusinesses({ accountId: 'any', countryCode, limit: 1000 })).items;
    const inside = (items: Awaited<ReturnType<typeof all>>, [s0, n0, w0, e0]: number[]) =>
      items.every((b) => b.latitude! >= s0 && b.latitude! <= n0 && b.longitude! >= w0 && b.longitude! <= e0);
    const monaco = await all('MC');
    assert.equal(monaco.length, mc.businesses);
    assert.ok(inside(monaco, [43.72, 43.76, 7.40, 7.44]), 'every Monaco POI lies in Monaco');
    assert.ok(inside(await all('AD'), [42.42, 42.67, 1.40, 1.80]), 'every Andorra POI lies in Andorra');
    assert.ok(monaco.every((b) => b.source === 'osm' && b.types.length > 0 && b.name));
    // The casino is a building outline (a way): it gets its centroid.
    const casino = (await db.searchBusinesses({ accountId: 'any', name: 'casino de monte', types: ['casino'], limit: 5 })).items;
    assert.equal(casino.length, 1);
    assert.ok(casino[0].latitude! > 43.73 && casino[0].latitude! < 43.75);
    // Every account sees imported open data; a circle around the casino finds it.
    const near = await db.searchBusinesses({ accountId: 'other', geo: [{ type: 'circle', lat: casino[0].latitude!, lng: casino[0].longitude!, radius_m: 50 }], limit: 10 });
    assert.ok(near.items.some((b) => b.os_id === casino[0].os_id));
    // Attributes from tags: the extracts (2012-13 edits) carry few; three Monaco places are tagged
    // wheelchair=limited, one Andorra restaurant internet_access=yes.
    const having = async (countryCode: string, attributes: string[]) =>
      (await db.searchBusinesses({ accountId: 'any', countryCode, attributes, limit: 1000 })).items.map((b) => b.name).sort();
    assert.deepEqual([mc.with_attributes, ad.with_attributes], [3, 1]);
    assert.deepEqual(monaco.filter((b) => b.attributes?.length).map((b) => b.name).sort(), ['Cafe de Paris', 'La Rascasse', 'Stars n Bars']);
    assert.deepEqual(await having('MC', ['limited wheelchair access']), ['Cafe de Paris', 'La Rascasse', 'Stars n Bars']);
    assert.deepEqual((await all('AD')).filter((b) => b.attributes?.length).map((b) => [b.name, b.attributes]),
      [['Restaurant Granja Del Poble (Internet Café)', ['Wi-Fi']]]);
    const wifi = parseQuery('restaurants in andorra with wifi');
    assert.deepEqual([wifi.notUnderstood, wifi.filters.attributes, wifi.filters.country_code], [[], ['Wi-Fi'], 'AD']);
    assert.deepEqual(await having('AD', wifi.filters.attributes!), ['Restaurant Granja Del Poble (Internet Café)']);
    const again = await importOsm(s, join(dir, 'monaco.osm.gz'), { country: 'MC' });
    assert.deepEqual([again.added, again.updated], [0, mc.businesses]);
    assert.equal((await all('MC')).length, mc.businesses);
  } finally { await s.close(); }
});

test('types are the iD tagging schema\'s preset names on real objects, and the query vocabulary finds them', { skip, timeout: 60_000 }, async () => {
  const s = await openSqliteStore(':memory:');
  try {
    await importOsm(s, join(dir, 'monaco.osm.gz'), { country: 'MC' });
    await importOsm(s, join(dir, 'andorra.osm.pbf'), { country: 'AD' });
    const db = businessStoreOf(s);
    const named = async (countryCode: string, types: string[]) =>
      (await db.searchBusinesses({ accountId: 'any', countryCode, types, limit: 1000 })).items.map((b) => [b.name, b.category]);
    // amenity=place_of_worship + religion=christian: a way (the cathedral's outline) and nodes.
    assert.ok((await named('MC', ['Christian Church'])).some(([n, c]) => n === 'Cathédrale Notre-Dame-Immaculée' && c === 'Christian Church'));
    assert.deepEqual((await named('MC', ['burger fast food'])).map(([n]) => n), ["McDonald's", "McDonald's"]);
    // tourism=alpine_hut: "Alpine hut" before, the editor's "Mountain Lodge" now.
    const huts = await named('AD', ['Mountain Lodge']);
    assert.ok(huts.length >= 10 && huts.some(([n]) => n === 'Refugi de Juclar'), JSON.stringify(huts));
    assert.deepEqual(await named('AD', ['Alpine hut']), []);
    assert.deepEqual((await named('AD', ['Gas Station'])).sort(), [['Esso', 'Gas Station'], ['bp', 'Gas Station']]);
    // What people ask for finds the imported places by those names.
    const found = async (q: string) => {
      const p = parseQuery(q);
      assert.deepEqual(p.notUnderstood, [], q);
      return (await db.searchBusinesses({ accountId: 'any', countryCode: p.filters.country_code, types: p.filters.types, limit: 1000 })).items.length;
    };
    for (const q of ['cafes in monaco', 'restaurants in monaco', 'churches in andorra', 'gas stations in andorra', 'pharmacies in monaco',
      'fast food in monaco', 'italian restaurants in monaco', 'hotels in andorra', 'clothing stores in andorra', 'supermarkets in andorra']) {
      assert.ok(await found(q) > 0, q);
    }
  } finally { await s.close(); }
});

test('tag mapping: readable types, address, contact, hours; infrastructure and unnamed objects are not businesses', () => {
  const b = businessFromOsm('node', 7, { name: 'Chez Nous', amenity: 'fast_food', cuisine: 'pizza;burger', 'addr:housenumber': '3', 'addr:street': 'Rue X',
    'addr:postcode': '98000', 'addr:city': 'Monaco', 'addr:country': 'MC', 'contact:phone': '+377 1', website: 'https://www.cheznous.mc/menu', opening_hours: 'Mo-Fr 10:00-22:00' }, 43.7, 7.4)!;
  assert.deepEqual(b.types, ['Fast Food', 'Pizza cuisine', 'Burger cuisine'], 'a cuisine list is no one cuisine: no "Pizza Fast Food"');
  assert.equal(b.category, 'Fast Food');
  assert.equal(b.full_address, '3 Rue X, 98000 Monaco');
  assert.deepEqual([b.phone, b.domain, b.working_hours, b.source], ['+377 1', 'cheznous.mc', 'Mo-Fr 10:00-22:00', 'osm']);
  assert.equal(businessFromOsm('node', 8, { amenity: 'cafe' }, 1, 1), null, 'no name');
  assert.equal(businessFromOsm('node', 9, { name: 'Bench', amenity: 'bench' }, 1, 1), null, 'infrastructure');
  assert.equal(businessFromOsm('way', 9, { name: 'Old shop', shop: 'bakery', disused: 'yes' }, 1, 1)!.business_status, 'closed_permanently');
  assert.notEqual(businessFromOsm('node', 10, { name: 'a', shop: 'x' }, 0, 0)!.os_id, businessFromOsm('way', 10, { name: 'a', shop: 'x' }, 0, 0)!.os_id);
});
