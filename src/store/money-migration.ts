/**
 * The check both stores' migration tests share (sqlite/money-migration.test.ts,
 * postgres/money-migration.test.ts): a store at the schema before money became integer micros, with
 * the float rows such a store really held, migrates to exact integers.
 *
 * @example
 *   for (const sql of OLD_FLOAT_ROWS) db.exec(sql);   // on a store migrated only up to the float schema
 *   await store.migrate(); await assertMicros(store);
 */
import assert from 'node:assert/strict';
import type { Store } from './contract.ts';
import type { Migration } from './migrations.ts';
import { fromMicros } from '../billing/money.ts';

/** Rows in the float schema (SQL both dialects read): a balance left at 100 - 24 x 0.003 - 20 x 0.002
 *  by float arithmetic, a credit limit, prices, a request and its ledger lines. */
export const OLD_FLOAT_ROWS = [
  `INSERT INTO accounts (id, name, balance, credit_limit, currency, webhook_secret, rate_per_sec, burst, created_at)
   VALUES ('old', 'old', 99.88799999999995, 0.1, 'usd', 's', 20, 40, 1)`,
  `INSERT INTO prices (account_id, product, unit_price) VALUES ('', 'engine_maps_search', 0.003), ('old', 'engine_maps_search', 0.0035)`,
  `INSERT INTO requests (id, account_id, endpoint, params, queries_total, product, unit, unit_price, empty_costs_one, drop_duplicates, created_at)
   VALUES ('r-old', 'old', '/maps/search', '{}', 2, 'engine_maps_search', 'place', 0.003, '1', '0', 1000)`,
  `INSERT INTO usage (account_id, request_id, item_key, product, unit, quantity, unit_price, amount, created_at)
   VALUES ('old', 'r-old', 'r-old:0', 'engine_maps_search', 'place', 24, 0.003, 0.07200000000000001, 2000),
          ('old', 'r-old', 'r-old:1', 'engine_maps_search', 'place', 20, 0.002, 0.04, 2000),
          ('old', 'r-old', 'r-old:2', 'engine_maps_search', 'place', 1, 0.003, 0.003, 2000)`,
];

/** The migrations of a backend that come before the one converting money to micros. */
export function beforeMicros(all: Migration[]): Migration[] {
  const micros = all.find((m) => m.name.endsWith('_money_micros.sql'))!.version;
  return all.filter((m) => m.version < micros);
}

export async function assertMicros(s: Store): Promise<void> {
  const a = (await s.getAccount('old'))!;
  assert.equal(a.balanceMicros, 99_888_000);
  assert.equal(a.creditLimitMicros, 100_000);
  assert.equal(JSON.stringify(fromMicros(a.balanceMicros)), '99.888');
  assert.equal(await s.getPrice('engine_maps_search', 'old'), 3_500);
  assert.equal(await s.getPrice('engine_maps_search', 'other'), 3_000);
  assert.equal((await s.getRequest('r-old'))?.unitPriceMicros, 3_000);
  const lines = (await s.usageForPeriod('old', 0, 10_000)).sort((x, y) => x.unitPriceMicros - y.unitPriceMicros);
  assert.deepEqual(lines, [
    { product: 'engine_maps_search', unit: 'place', quantity: 20, amountMicros: 40_000, unitPriceMicros: 2_000 },
    { product: 'engine_maps_search', unit: 'place', quantity: 25, amountMicros: 75_000, unitPriceMicros: 3_000 },
  ]);
  // The migrated columns keep working: a charge and a credit move the balance in whole micros.
  assert.equal(await s.addBalance('old', -1), 99_887_999);
}
