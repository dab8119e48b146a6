import { test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { itemBilling, itemQuantity, itemQuantitySql, type ItemFound } from './rule.ts';

test('billing rule: the SQL pick (PostgreSQL completion) answers what itemQuantity answers, for every case', () => {
  const db = new Database(':memory:');
  const sql = (v: unknown) => (typeof v === 'boolean' ? (v ? 'true' : 'false') : String(v));
  const cases: ItemFound[] = [{ count: 0 }, { count: 0, cutByTotal: true }, { count: 3 }, { count: 3, units: 7 }, { count: 2, units: 0 },
    { count: 3, deduped: true }, { count: 0, deduped: true }];
  let checked = 0;
  for (const found of cases) {
    const b = itemBilling(found);
    for (const emptyCostsOne of [true, false]) {
      for (const newKeys of [0, 2]) {
        const expr = itemQuantitySql({ emptyFree: sql(b.emptyFree), emptyCostsOne: sql(b.emptyCostsOne), byNewKeys: sql(b.byNewKeys) }, sql(emptyCostsOne), sql(newKeys));
        const got = (db.prepare(`SELECT ${expr} AS n`).get() as { n: number }).n;
        assert.equal(got, itemQuantity(b, emptyCostsOne, newKeys), `${JSON.stringify(found)} emptyCostsOne=${emptyCostsOne} newKeys=${newKeys}`);
        checked++;
      }
    }
  }
  assert.equal(checked, 28);
  db.close();
});
