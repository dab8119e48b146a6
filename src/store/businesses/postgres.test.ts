import { test } from 'node:test';
import assert from 'node:assert/strict';
import { business, businessConformance } from './conformance.ts';
import { businessFilterConformance } from './conformance-filters.ts';
import { PG_SKIP, openOlderPostgresStore, openScratchPostgresStore, pgTestUrl } from '../postgres/testing.ts';
import { businessStoreOf } from './index.ts';
import { valueFreePlan } from './postgres.ts';
import type { BusinessQuery } from './contract.ts';

const url = pgTestUrl();
businessConformance('postgres', () => openScratchPostgresStore(url!), { skip: !url && PG_SKIP });
businessFilterConformance('postgres', () => openScratchPostgresStore(url!), { skip: !url && PG_SKIP });

test('postgres business search: value-free shapes are planned once on the generic connections, the rest for their values, and no setting leaks to the store\'s other connections', { skip: !url && PG_SKIP }, async () => {
  const s = await openScratchPostgresStore(url!, { max: 1 });
  try {
    const b = businessStoreOf(s);
    await b.upsertBusinesses('a1', [business('g1', { name: 'Golden Bean', country_code: 'US', rating: 4.7, types: ['Cafe'], city: 'Austin' })], 1_000_000);
    const generic: Partial<BusinessQuery>[] = [{}, { countryCode: 'US', types: ['cafe'], rating: { min: 4.5 } }, { cities: ['austin'], hasWebsite: false }];
    for (let i = 0; i < 3; i++) for (const q of generic) assert.equal((await b.searchBusinesses({ accountId: 'a1', limit: 10, ...q })).items.length, 1);
    assert.equal((await b.searchBusinesses({ accountId: 'a1', limit: 10, name: 'gold' })).items.length, 1);
    const c = await s.genericPool.connect();
    try {
      const { rows } = await c.query('SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements');
      assert.equal(rows.length, generic.length, 'one prepared statement per value-free shape, none for the name search');
      for (const r of rows) assert.deepEqual([Number(r.generic_plans), Number(r.custom_plans)], [3, 0], r.statement);
    } finally { c.release(); }
    assert.equal((await s.pool.query('SHOW plan_cache_mode')).rows[0].plan_cache_mode, 'auto');
  } finally { await s.close(); }
});

test('postgres business search: which shapes have one best plan whatever their values', () => {
  const q = (x: Partial<BusinessQuery>) => valueFreePlan({ accountId: 'a', limit: 10, ...x });
  for (const x of [{}, { countryCode: 'US', types: ['cafe'], rating: { min: 4.5 } }, { cities: ['paris'], hasWebsite: true, reviews: { min: 100 } },
    { geo: [{ type: 'circle' as const, lat: 1, lng: 2, radius_m: 3 }] }, { osIds: ['a', 'b'] }, { rating: { min: 4 } }, { domain: 'x.com' }]) assert.ok(q(x), JSON.stringify(x));
  for (const x of [{ name: 'x' }, { phone: '1' }, { attributes: ['wifi'] }, { postalCodes: ['75'] }, { types: ['a'], broadMatch: true },
    { ignoreTypes: ['park'] }, { updatedFrom: 1 }, { addedTo: 1 }, { types: ['a', 'b'] }, { cities: ['a', 'b'] }, { countryCode: 'US', rating: { min: 4.9 } }]) assert.ok(!q(x), JSON.stringify(x));
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
