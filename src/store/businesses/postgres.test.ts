import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SAMPLE, business, businessConformance } from './conformance.ts';
import { businessFilterConformance } from './conformance-filters.ts';
import { PG_SKIP, openOlderPostgresStore, openScratchPostgresStore, pgTestUrl } from '../postgres/testing.ts';
import { businessStoreOf } from './index.ts';
import { PostgresBusinessStore, scanOf, valueFreePlan } from './postgres.ts';
import type { BusinessQuery } from './contract.ts';

const url = pgTestUrl();
businessConformance('postgres', () => openScratchPostgresStore(url!), { skip: !url && PG_SKIP });
businessFilterConformance('postgres', () => openScratchPostgresStore(url!), { skip: !url && PG_SKIP });

test('postgres business capture: a place found again as it was within the second of its `updated` time is not written again (no new row version)', { skip: !url && PG_SKIP }, async () => {
  const s = await openScratchPostgresStore(url!);
  try {
    const b = businessStoreOf(s);
    await b.upsertBusinesses('a1', SAMPLE, 1_000_000);
    const stored = async () => (await s.pool.query('SELECT updated::float8 AS updated, xmin::text AS v FROM businesses WHERE owner = $1 AND os_id = $2', ['a1', SAMPLE[0].os_id])).rows[0];
    const first = await stored();
    assert.deepEqual(await b.upsertBusinesses('a1', SAMPLE, 1_000_999), { added: 0, updated: SAMPLE.length });
    assert.deepEqual(await stored(), first, 'the same version of the row');
    await b.upsertBusinesses('a1', SAMPLE, 1_001_000);
    const moved = await stored();
    assert.equal(moved.updated, 1_001_000);
    assert.notEqual(moved.v, first.v);
  } finally { await s.close(); }
});

test('postgres business search: value-free shapes are planned once on the generic connections, the rest for their values, and no setting leaks to the store\'s other connections', { skip: !url && PG_SKIP }, async () => {
  const s = await openScratchPostgresStore(url!, { max: 1 });
  try {
    const b = businessStoreOf(s);
    await b.upsertBusinesses('a1', [business('g1', { name: 'Golden Bean', country_code: 'US', rating: 4.7, types: ['Cafe'], city: 'Austin' })], 1_000_000);
    const generic: Partial<BusinessQuery>[] = [{}, { countryCode: 'US', types: ['cafe'], rating: { min: 4.5 } }, { cities: ['austin'], hasWebsite: false }];
    for (let i = 0; i < 3; i++) for (const q of generic) assert.equal((await b.searchBusinesses({ accountId: 'a1', limit: 10, ...q })).items.length, 1);
    assert.equal((await b.searchBusinesses({ accountId: 'a1', limit: 10, name: 'gold' })).items.length, 1);
    // Sequential searches all ran on the one generic connection held for them; asked there.
    const { rows } = await s.genericQuery({ text: 'SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements' });
    assert.equal(rows.length, generic.length, 'one prepared statement per value-free shape, none for the name search');
    for (const r of rows) assert.ok(Number(r.generic_plans) >= 3 && Number(r.custom_plans) === 0, `${r.statement}: ${r.generic_plans} generic, ${r.custom_plans} custom`);
    assert.equal((await s.pool.query('SHOW plan_cache_mode')).rows[0].plan_cache_mode, 'auto');
  } finally { await s.close(); }
});

test('postgres business search: every page but a name search is planned once for any values (its walk is fixed by the driver)', () => {
  const q = (x: Partial<BusinessQuery>) => valueFreePlan({ accountId: 'a', limit: 10, ...x });
  for (const x of [{}, { countryCode: 'US', types: ['cafe'], rating: { min: 4.5 } }, { cities: ['paris'], hasWebsite: true, reviews: { min: 100 } },
    { geo: [{ type: 'circle' as const, lat: 1, lng: 2, radius_m: 3 }] }, { osIds: ['a', 'b'] }, { rating: { min: 4 } }, { domain: 'x.com' },
    { updatedFrom: 1 }, { types: ['a', 'b'] }, { name: 'ab' }, { name: 'golden', nameExclude: true }, { osIds: ['a'], name: 'golden' }]) assert.ok(q(x), JSON.stringify(x));
  for (const x of [{ name: 'golden' }, { name: 'golden', cities: ['paris'] }]) assert.ok(!q(x), JSON.stringify(x));
});

test('postgres business search: a column page whose generic plan would not walk the column\'s index is planned for its values', { skip: !url && PG_SKIP }, async () => {
  const s = await openScratchPostgresStore(url!, { max: 1 });
  try {
    await businessStoreOf(s).upsertBusinesses('a1', [business('g1', { name: 'Golden Bean', city: 'Austin' }), business('g2', { name: 'Blue', city: 'Lyon' })], 1_000_000);
    await s.pool.query('DROP INDEX businesses_by_city');
    const b = new PostgresBusinessStore(s.pool, s);
    for (let i = 0; i < 2; i++) assert.deepEqual((await b.searchBusinesses({ accountId: 'a1', limit: 10, cities: ['austin'] })).items.map((x) => x.name), ['Golden Bean']);
    const checked = [...(b as unknown as { walks: Map<string, { ok: boolean }> }).walks.values()];
    assert.deepEqual(checked.map((x) => x.ok), [false], 'checked once, found not to walk the index');
    for (const q of [(c: { text: string }) => s.genericQuery(c), (c: { text: string }) => s.genericPool.query(c)]) {
      const { rows } = await q({ text: 'SELECT generic_plans FROM pg_prepared_statements' });
      assert.ok(rows.every((r) => Number(r.generic_plans) <= 2), 'the page itself never ran on the generic plan after the check');
    }
  } finally { await s.close(); }
});

test('postgres business search: the scan of the page\'s rows is found in a plan', () => {
  const plan = { 'Node Type': 'Limit', Plans: [{ 'Node Type': 'Index Scan', 'Relation Name': 'businesses', Alias: 'b', 'Index Name': 'businesses_by_city',
    Plans: [{ 'Node Type': 'Index Only Scan', 'Relation Name': 'businesses', Alias: 'o', 'Index Name': 'businesses_owner_os_id_key' }] }] };
  assert.equal(scanOf(plan, 'b')?.['Index Name'], 'businesses_by_city');
  assert.equal(scanOf(plan, 'x'), undefined);
});

test('postgres migration 012: type rows of stored businesses get their country and rating', { skip: !url && PG_SKIP }, async () => {
  const s = await openOlderPostgresStore(url!, (all) => all.filter((m) => m.version < 12));
  try {
    await s.pool.query(`INSERT INTO businesses (id, owner, os_id, name_k, country_code, rating, has_site, has_phone, added, updated)
      VALUES (1, 'a1', 'x1', 'joe', 'US', 4.6, 0, 0, 0, 0), (2, 'a1', 'x2', 'ann', NULL, NULL, 0, 0, 0, 0)`);
    await s.pool.query(`INSERT INTO business_records VALUES (1, '{}'), (2, '{}')`);
    await s.pool.query(`INSERT INTO business_types (business, type_k) VALUES (1, 'cafe'), (1, 'bar'), (2, 'cafe')`);
    await s.migrate();
    const { rows } = await s.pool.query('SELECT business, type_k, country_code, rating FROM business_types ORDER BY business, type_k');
    assert.deepEqual(rows.map((r) => [Number(r.business), r.type_k, r.country_code, r.rating]), [[1, 'bar', 'US', 4.6], [1, 'cafe', 'US', 4.6], [2, 'cafe', null, null]]);
  } finally { await s.close(); }
});
