/**
 * Imported places are placed (issue 26): an extract imported without `--country` is found by
 * country, by city and in natural language, on both stores; phones become E.164 with the text kept;
 * a re-import fills what an earlier import left empty. Real extracts from FIXTURES_DIR/osm.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openSqliteStore } from '../src/store/sqlite/store.ts';
import { openScratchPostgresStore, pgTestUrl, PG_SKIP } from '../src/store/postgres/testing.ts';
import type { Store } from '../src/store/contract.ts';
import { businessStoreOf } from '../src/store/businesses/index.ts';
import { OPEN_DATA } from '../src/store/businesses/contract.ts';
import { queryOf } from '../src/app/business-query.ts';
import { importOsm } from '../src/businesses/osm-import.ts';
import { businessFromOsm } from '../src/businesses/osm-business.ts';
import { composeBusinessAddress, e164Of } from '../src/businesses/osm-place.ts';
import { parseQuery } from '../src/businesses/query/parse.ts';

const dir = join(process.env.FIXTURES_DIR ?? '../shared/fixtures', 'osm');
const skip = existsSync(join(dir, 'monaco.osm.gz')) ? false : `OSM fixtures not found in ${dir} (set FIXTURES_DIR)`;
const pg = pgTestUrl();

/** What a natural-language search finds, through the same filters → query step the API uses. */
async function found(store: Store, q: string): Promise<string[]> {
  const p = parseQuery(q);
  assert.deepEqual(p.notUnderstood, [], q);
  const page = await businessStoreOf(store).searchBusinesses({ ...queryOf('any', p.filters), limit: 1000 });
  return page.items.map((b) => b.name!);
}

async function placedMonaco(store: Store): Promise<void> {
  await importOsm(store, join(dir, 'monaco.osm.gz'));
  const db = businessStoreOf(store);
  const all = (await db.searchBusinesses({ accountId: 'any', limit: 1000 })).items;
  assert.ok(all.length > 50);
  assert.ok(all.every((b) => b.country_code === 'MC'), 'every object of the extract is in Monaco, by its coordinates');
  assert.ok(all.every((b) => b.city === 'Monaco' && b.state && b.full_address?.includes('Monaco')), JSON.stringify(all.find((b) => b.city !== 'Monaco')));
  const cafes = await found(store, 'cafes in monaco');
  assert.ok(cafes.length >= 5, `cafés by country: ${cafes}`);
  assert.deepEqual((await db.searchBusinesses({ ...queryOf('any', { country_code: 'MC', types: ['Restaurant'] }), limit: 1000 })).items.length > 10, true);
  // Monte-Carlo is a quarter of Monaco: found by where it is, the casino's neighbourhood.
  const mc = await found(store, 'restaurants in monte carlo');
  const whole = await found(store, "restaurants in monaco");
  assert.ok(mc.length > 0 && mc.length < whole.length, `${mc.length} of ${whole.length}`);
  // Phones: as E.164, the text as tagged kept.
  const saliere = all.find((b) => b.name === 'La Saliere')!;
  assert.deepEqual([saliere.phone, saliere.phone_raw], ['+37792052582', '00377 92 05 25 82']);
  assert.ok(all.filter((b) => b.phone).every((b) => /^\+\d{8,15}$/.test(b.phone!) || b.phone_raw === undefined), 'normalised or left as it was');
}

test('an extract imported without --country is placed: country, city, address, E.164 phones (SQLite)', { skip, timeout: 120_000 }, async () => {
  const s = await openSqliteStore(':memory:');
  try { await placedMonaco(s); } finally { await s.close(); }
});

test('an extract imported without --country is placed (PostgreSQL)', { skip: skip || (pg ? false : PG_SKIP), timeout: 120_000 }, async () => {
  const s = await openScratchPostgresStore(pg!);
  try { await placedMonaco(s); } finally { await s.close(); }
});

test('a re-import fills what an earlier import left empty', { skip, timeout: 120_000 }, async () => {
  const s = await openSqliteStore(':memory:');
  try {
    const db = businessStoreOf(s);
    // As an import before placement stored it: no country, city or state, the phone as typed.
    const old = businessFromOsm('node', 1_000_000_001, { name: 'Test Café', amenity: 'cafe', phone: '00377 92 05 25 82' }, 43.7397, 7.4273)!;
    await db.upsertBusinesses(OPEN_DATA, [old], Date.now());
    const before = (await db.searchBusinesses({ accountId: 'any', osIds: [old.os_id], limit: 1 })).items[0];
    assert.deepEqual([before.country_code, before.city, before.phone], [null, null, '00377 92 05 25 82']);
    // The import runs over the same object id again (a small extract written here for it).
    const { writeFileSync, mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const file = join(mkdtempSync(join(tmpdir(), 'osm-')), 'one.osm');
    writeFileSync(file, `<?xml version="1.0"?><osm version="0.6"><node id="1000000001" lat="43.7397" lon="7.4273">
      <tag k="name" v="Test Café"/><tag k="amenity" v="cafe"/><tag k="phone" v="00377 92 05 25 82"/></node></osm>`);
    const r = await importOsm(s, file);
    assert.deepEqual([r.added, r.updated], [0, 1]);
    const after = (await db.searchBusinesses({ accountId: 'any', osIds: [old.os_id], limit: 1 })).items[0];
    assert.deepEqual([after.country_code, after.city, after.phone, after.phone_raw], ['MC', 'Monaco', '+37792052582', '00377 92 05 25 82']);
    assert.equal(after.full_address, 'Monaco');
  } finally { await s.close(); }
});

test('addresses follow the country\'s postal order; the tags win over the geocoder', () => {
  assert.equal(composeBusinessAddress({ houseNumber: '2', road: 'Rue des Orangers', postcode: '98000', city: 'Monaco', countryCode: 'MC' }), '2 Rue des Orangers, 98000 Monaco');
  assert.equal(composeBusinessAddress({ houseNumber: '350', road: '5th Avenue', postcode: '10118', city: 'New York', state: 'New York', countryCode: 'US' }),
    '350 5th Avenue, New York, NY 10118, United States');
  assert.equal(composeBusinessAddress({ houseNumber: '12', road: 'Hauptstraße', postcode: '10115', city: 'Berlin', countryCode: 'DE' }), 'Hauptstraße 12, 10115 Berlin, Germany');
  assert.equal(composeBusinessAddress({}), null);
  assert.equal(e164Of('00377 92 05 25 82', 'MC'), '+37792052582');
  assert.equal(e164Of('030 1234567;030 7654321', 'DE'), '+49301234567', 'the first of an OSM list');
  assert.equal(e164Of('12', 'DE'), null, 'not a number of the country: left as it was');
});
