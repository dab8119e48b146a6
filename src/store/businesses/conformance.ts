/**
 * The business database conformance suite: both stores run it (sqlite.test.ts, postgres.test.ts) and
 * must give the same answers to the same searches (interface 4.8, issue 13).
 *
 * @example businessConformance('sqlite', async () => openSqliteStore(':memory:'))
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Store } from '../contract.ts';
import { OPEN_DATA, type BusinessQuery, type BusinessRecord } from './contract.ts';
import { businessStoreOf } from './index.ts';
import { osIdOf } from './os-id.ts';

/** A record with every field null but the given ones. */
export function business(key: string, patch: Partial<BusinessRecord> = {}): BusinessRecord {
  return {
    os_id: osIdOf('place', key), place_id: key, engine_id: null, name: null, phone: null, site: null, domain: null, full_address: null,
    street: null, city: null, county: null, state: null, postal_code: null, country_code: null, latitude: null, longitude: null,
    rating: null, reviews: null, types: [], category: null, business_status: null, verified: null, area_service: null,
    working_hours: null, source: '/maps/search', ...patch,
  };
}

/** Austin and Paris: a handful of places that exercise every filter. */
export const SAMPLE: BusinessRecord[] = [
  business('p1', { name: "Joe's Coffee", city: 'Austin', state: 'Texas', country_code: 'US', postal_code: '78701', latitude: 30.2672, longitude: -97.7431,
    rating: 4.6, reviews: 120, types: ['Coffee shop', 'Cafe'], site: 'https://www.joescoffee.com/austin', phone: '+1 512-555-0101', business_status: 'operational', verified: true }),
  business('p2', { name: 'Bean There', city: 'Austin', state: 'Texas', country_code: 'US', postal_code: '78702', latitude: 30.2600, longitude: -97.7200,
    rating: 4.0, reviews: 15, types: ['Coffee shop'], business_status: 'closed_temporarily' }),
  business('p3', { name: 'Taco 100%', city: 'Austin', state: 'Texas', country_code: 'US', postal_code: '78745', latitude: 30.2000, longitude: -97.8000,
    rating: 3.2, reviews: 4, types: ['Restaurant', 'Mexican restaurant'], phone: '(512) 555-0199', business_status: 'operational' }),
  business('p4', { name: 'Café de Flore', city: 'Paris', country_code: 'FR', postal_code: '75006', latitude: 48.8540, longitude: 2.3325,
    rating: 4.5, reviews: 9000, types: ['Cafe', 'Restaurant'], site: 'http://cafedeflore.fr', business_status: 'operational' }),
  business('p5', { name: 'Le Closed', city: 'Paris', country_code: 'FR', postal_code: '75011', latitude: 48.8590, longitude: 2.3800,
    types: ['Restaurant'], business_status: 'closed_permanently' }),
];

export function businessConformance(name: string, open: () => Promise<Store>, opts: { skip?: string | false } = {}): void {
  const t = (title: string, fn: (s: Store) => Promise<void>) =>
    test(`business conformance [${name}]: ${title}`, { skip: opts.skip || false }, async () => {
      const s = await open();
      try { await fn(s); } finally { await s.close(); }
    });
  const names = async (s: Store, q: Partial<BusinessQuery>) =>
    (await businessStoreOf(s).searchBusinesses({ accountId: 'a1', limit: 100, ...q })).items.map((b) => b.name).sort();
  const seeded = async (s: Store) => { await businessStoreOf(s).upsertBusinesses('a1', SAMPLE, 1_000_000); };

  t('an unchanged place upserted again: counted as updated, its time moves, every index still finds it', async (s) => {
    const b = businessStoreOf(s);
    await seeded(s);
    assert.deepEqual(await b.upsertBusinesses('a1', SAMPLE, 3_000_000), { added: 0, updated: SAMPLE.length });
    const page = await b.searchBusinesses({ accountId: 'a1', osIds: [SAMPLE[0].os_id], limit: 10 });
    assert.deepEqual([page.items[0].added_timestamp, page.items[0].updated_timestamp], [1000, 3000]);
    assert.ok((await names(s, { name: SAMPLE[0].name!.slice(1, 5) })).includes(SAMPLE[0].name!));
    assert.ok((await names(s, { types: [SAMPLE[0].types[0]] })).includes(SAMPLE[0].name!));
    const { latitude: lat, longitude: lng } = SAMPLE[0];
    assert.ok((await names(s, { geo: [{ type: 'circle', lat: lat!, lng: lng!, radius_m: 10 }] })).includes(SAMPLE[0].name!));
  });

  t('a place found again within the second of its `updated` time: counted as updated, the time it shows stays; a changed one is written', async (s) => {
    const b = businessStoreOf(s);
    await seeded(s);
    const shown = async () => (await b.searchBusinesses({ accountId: 'a1', osIds: [SAMPLE[0].os_id, SAMPLE[1].os_id], limit: 10 })).items
      .map((r) => [r.name, r.rating, r.updated_timestamp]).sort();
    // The same records 0.7 s later (same second), one of them changed, then the unchanged ones a second on.
    assert.deepEqual(await b.upsertBusinesses('a1', [SAMPLE[0], { ...SAMPLE[1], rating: 4.9 }], 1_000_700), { added: 0, updated: 2 });
    assert.deepEqual(await shown(), [['Bean There', 4.9, 1000], ["Joe's Coffee", 4.6, 1000]]);
    assert.deepEqual(await names(s, { updatedFrom: 1000, updatedTo: 1000 }), SAMPLE.map((r) => r.name).sort());
    assert.deepEqual(await b.upsertBusinesses('a1', [SAMPLE[0]], 1_001_200), { added: 0, updated: 1 });
    assert.deepEqual(await shown(), [['Bean There', 4.9, 1000], ["Joe's Coffee", 4.6, 1001]]);
    assert.deepEqual(await names(s, { updatedFrom: 1001 }), ["Joe's Coffee"]);
  });

  t('an upsert adds once and updates after; times in seconds', async (s) => {
    const b = businessStoreOf(s);
    assert.deepEqual(await b.upsertBusinesses('a1', SAMPLE, 1_000_000), { added: 5, updated: 0 });
    assert.deepEqual(await b.upsertBusinesses('a1', [{ ...SAMPLE[0], rating: 4.8, types: ['Roastery'] }], 2_000_000), { added: 0, updated: 1 });
    const page = await b.searchBusinesses({ accountId: 'a1', osIds: [SAMPLE[0].os_id], limit: 10 });
    assert.equal(page.items.length, 1);
    assert.equal(page.items[0].rating, 4.8);
    assert.equal(page.items[0].added_timestamp, 1000);
    assert.equal(page.items[0].updated_timestamp, 2000);
    // The old types are gone, the new one is searchable.
    assert.deepEqual(await names(s, { types: ['roastery'] }), ["Joe's Coffee"]);
    assert.deepEqual(await names(s, { types: ['Coffee shop'] }), ['Bean There']);
  });

  t('scope: own rows and open data, never another account\'s; own row wins over open data', async (s) => {
    const b = businessStoreOf(s);
    await b.upsertBusinesses('a1', [SAMPLE[0]], 1000);
    await b.upsertBusinesses('a2', [SAMPLE[1]], 1000);
    await b.upsertBusinesses(OPEN_DATA, [{ ...SAMPLE[0], name: 'Joe (open data)' }, SAMPLE[2]], 1000);
    assert.deepEqual(await names(s, {}), ["Joe's Coffee", 'Taco 100%']);
    assert.deepEqual(await names(s, { accountId: 'a2' }), ['Bean There', 'Joe (open data)', 'Taco 100%']);
    // Counted, not read off the page: one row a page.
    const total = async (accountId: string) => (await b.searchBusinesses({ accountId, limit: 1, includeTotal: true })).total;
    assert.deepEqual([await total('a1'), await total('a2'), await total('a3')], [2, 3, 2]);
  });

  t('place, type, name, phone, domain and flag filters', async (s) => {
    await seeded(s);
    assert.deepEqual(await names(s, { countryCode: 'fr' }), ['Café de Flore', 'Le Closed']);
    assert.deepEqual(await names(s, { cities: ['AUSTIN'], states: ['texas'] }), ['Bean There', "Joe's Coffee", 'Taco 100%']);
    assert.deepEqual(await names(s, { postalCodes: ['787', '75006'] }), ['Bean There', 'Café de Flore', "Joe's Coffee", 'Taco 100%']);
    assert.deepEqual(await names(s, { postalCodes: ['7870'] }), ['Bean There', "Joe's Coffee"]);
    assert.deepEqual(await names(s, { types: ['cafe'] }), ['Café de Flore', "Joe's Coffee"]);
    assert.deepEqual(await names(s, { types: ['restaurant'], ignoreTypes: ['cafe'] }), ['Le Closed', 'Taco 100%']);
    assert.deepEqual(await names(s, { name: 'COFFEE' }), ["Joe's Coffee"]);
    assert.deepEqual(await names(s, { name: 'café' }), ['Café de Flore']);
    assert.deepEqual(await names(s, { name: '100%' }), ['Taco 100%']);
    assert.deepEqual(await names(s, { name: '%' }), ['Taco 100%']);
    assert.deepEqual(await names(s, { name: 'e', nameExclude: true, countryCode: 'US' }), ['Taco 100%']);
    assert.deepEqual(await names(s, { phone: '5550199' }), ['Taco 100%']);
    assert.deepEqual(await names(s, { phone: '512' }), ["Joe's Coffee", 'Taco 100%']);
    assert.deepEqual(await names(s, { phone: 'x' }), []);
    assert.deepEqual(await names(s, { domain: 'joescoffee.com' }), ["Joe's Coffee"]);
    assert.deepEqual(await names(s, { domain: 'https://cafedeflore.fr/' }), ['Café de Flore']);
    assert.deepEqual(await names(s, { hasWebsite: true }), ['Café de Flore', "Joe's Coffee"]);
    assert.deepEqual(await names(s, { hasPhone: false, countryCode: 'US' }), ['Bean There']);
    assert.deepEqual(await names(s, { verified: true }), ["Joe's Coffee"]);
    assert.deepEqual(await names(s, { businessStatuses: ['closed_temporarily', 'closed_permanently'] }), ['Bean There', 'Le Closed']);
  });

  t('rating and reviews ranges, open and strict ends; a null never matches a range', async (s) => {
    await seeded(s);
    assert.deepEqual(await names(s, { rating: { min: 4.5 } }), ['Café de Flore', "Joe's Coffee"]);
    assert.deepEqual(await names(s, { rating: { max: 4, maxStrict: true } }), ['Taco 100%']);
    assert.deepEqual(await names(s, { rating: { min: 3, max: 4.5 } }), ['Bean There', 'Café de Flore', 'Taco 100%']);
    assert.deepEqual(await names(s, { reviews: { min: 100 } }), ['Café de Flore', "Joe's Coffee"]);
    assert.deepEqual(await names(s, { reviews: { min: 15, minStrict: true, max: 9000, maxStrict: true } }), ["Joe's Coffee"]);
  });

  t('geo: circle and bounding box, same rows on both stores', async (s) => {
    await seeded(s);
    // Joe's is the centre; Bean There is ~2.3 km east, Taco ~9.6 km south-west.
    assert.deepEqual(await names(s, { geo: [{ type: 'circle', lat: 30.2672, lng: -97.7431, radius_m: 2000 }] }), ["Joe's Coffee"]);
    assert.deepEqual(await names(s, { geo: [{ type: 'circle', lat: 30.2672, lng: -97.7431, radius_m: 3000 }] }), ['Bean There', "Joe's Coffee"]);
    assert.deepEqual(await names(s, { geo: [{ type: 'circle', lat: 30.2672, lng: -97.7431, radius_m: 12_000 }] }), ['Bean There', "Joe's Coffee", 'Taco 100%']);
    // Its pages: in storage order, each row once, with the total.
    const circle = { accountId: 'a1', geo: [{ type: 'circle' as const, lat: 30.2672, lng: -97.7431, radius_m: 12_000 }], limit: 1, includeTotal: true };
    const walked: string[] = [];
    for (let after: string | undefined, more = true; more;) {
      const p = await businessStoreOf(s).searchBusinesses({ ...circle, after });
      assert.equal(p.total, 3);
      walked.push(...p.items.map((i) => i.name!));
      [after, more] = [p.last, p.hasMore];
    }
    assert.deepEqual(walked, ["Joe's Coffee", 'Bean There', 'Taco 100%']);
    assert.deepEqual(await names(s, { geo: [{ type: 'bbox', south: 48.85, west: 2.3, north: 48.86, east: 2.35 }] }), ['Café de Flore']);
    // A point exactly on the box's edge is inside.
    assert.deepEqual(await names(s, { geo: [{ type: 'bbox', south: 48.854, west: 2.3325, north: 48.854, east: 2.3325 }] }), ['Café de Flore']);
  });

  t('added/updated windows in Unix seconds', async (s) => {
    const b = businessStoreOf(s);
    await b.upsertBusinesses('a1', SAMPLE.slice(0, 2), 1_000_000);
    await b.upsertBusinesses('a1', SAMPLE.slice(1, 3), 5_000_000);
    assert.deepEqual(await names(s, { addedFrom: 2000 }), ['Taco 100%']);
    assert.deepEqual(await names(s, { addedTo: 1000 }), ['Bean There', "Joe's Coffee"]);
    assert.deepEqual(await names(s, { updatedFrom: 5000, updatedTo: 5000 }), ['Bean There', 'Taco 100%']);
  });

  t('keyset pages: in the order rows were first stored, every row once, total ignores the page', async (s) => {
    await seeded(s);
    const b = businessStoreOf(s);
    const seen: string[] = [];
    const late: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await b.searchBusinesses({ accountId: 'a1', limit: 2, after, includeTotal: true });
      // Total counts every match now, the rows added during the walk included.
      assert.equal(page.total, 5 + late.length);
      seen.push(...page.items.map((i) => i.os_id));
      if (!page.hasMore) break;
      after = page.last;
      // A row added during the walk does not shift the pages still to come: it comes after them. An
      // update of a row already seen does not bring it back.
      const row = business(`late-${seen.length}`, { name: 'late' });
      late.push(row.os_id);
      await b.upsertBusinesses('a1', [row, { ...SAMPLE[0], rating: 1 }], 2_000_000);
    }
    assert.deepEqual(seen, [...SAMPLE.map((r) => r.os_id), ...late]);
    // Each filter's walk keeps the same order.
    const typed = await b.searchBusinesses({ accountId: 'a1', types: ['restaurant'], limit: 1 });
    const next = await b.searchBusinesses({ accountId: 'a1', types: ['restaurant'], limit: 5, after: typed.last });
    assert.deepEqual([...typed.items, ...next.items].map((i) => i.name), ['Taco 100%', 'Café de Flore', 'Le Closed']);
    const named = await b.searchBusinesses({ accountId: 'a1', name: 'caf', limit: 1, after: (await b.searchBusinesses({ accountId: 'a1', name: 'e', limit: 1 })).last });
    assert.deepEqual(named.items.map((i) => i.name), ['Café de Flore']);
  });
}
