/**
 * The janitor's usage roll-up (issue 15, bounded storage) on both stores: lines older than the
 * cut merge into one line per account, UTC day, product, unit and price; every day's and the
 * month's sums, and the balance, are the same before and after; a second run changes nothing;
 * lines after the cut are untouched; batches of any size give the same result.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Store } from './contract.ts';
import { openSqliteStore, SqliteStore } from './sqlite/store.ts';
import type { PostgresStore } from './postgres/store.ts';
import { PG_SKIP, openScratchPostgresStore, pgTestUrl } from './postgres/testing.ts';

const url = pgTestUrl();
const DAY = 86_400_000;
const D0 = Date.UTC(2026, 9, 1); // 1 October 2026, a UTC midnight

/** Every usage row as item key, quantity and micros, ordered by key. */
async function usageRows(s: Store): Promise<[string, number, number, number][]> {
  const sql = 'SELECT item_key, quantity, amount_micros, created_at FROM usage ORDER BY item_key';
  const rows = s instanceof SqliteStore ? s.db.prepare(sql).all() : (await (s as PostgresStore).pool.query(`SET search_path TO ${(s as PostgresStore).schema}; ${sql}`) as any)[1].rows;
  return (rows as Record<string, unknown>[]).map((r) => [String(r.item_key), Number(r.quantity), Number(r.amount_micros), Number(r.created_at)]);
}

/** Sums per account and UTC day (each of 5 days from D0) and for the whole month, as the API reads them. */
async function sums(s: Store, accounts: string[]) {
  const out: unknown[] = [];
  for (const a of accounts) {
    for (let d = 0; d < 5; d++) out.push([a, d, await s.usageForPeriod(a, D0 + d * DAY, D0 + (d + 1) * DAY)]);
    out.push([a, 'month', await s.usageForPeriod(a, D0, Date.UTC(2026, 10, 1))]);
    out.push([a, 'balance', (await s.getAccount(a))?.balanceMicros]);
  }
  return out;
}

async function fill(s: Store): Promise<string[]> {
  const ids = ['acct-a', 'acct-b'];
  for (const id of ids) await s.createAccount({ id, name: id, balanceMicros: 100_000_000, creditLimitMicros: 0, currency: 'usd', pastDue: false, webhookSecret: 's', webhookUrl: null, ratePerSec: 1, burst: 1, createdAt: 1 });
  let n = 0;
  const charge = (accountId: string, at: number, product: string, quantity: number, unitPriceMicros: number) =>
    s.chargeUsage({ accountId, key: `businesses:${n++}`, product, unit: 'business', quantity, unitPriceMicros, now: at });
  // Day 0: two products, two prices of one product, the day's first and last millisecond; day 1; day 3 (after the cut).
  for (const a of ids) {
    await charge(a, D0, 'businesses', 3, 250_000);
    await charge(a, D0 + 5_000, 'businesses', 4, 250_000);
    await charge(a, D0 + 6_000, 'businesses', 1, 300_001);
    await charge(a, D0 + DAY - 1, 'places', 7, 3_000);
    await charge(a, D0 + DAY, 'places', 2, 3_000);
    await charge(a, D0 + DAY + 9, 'places', 5, 3_000);
    await charge(a, D0 + 3 * DAY + 1, 'places', 11, 3_000);
    await charge(a, D0 + 3 * DAY + 2, 'places', 1, 3_000);
  }
  // A line billed by a work item (key `<item id>|<product>`).
  await s.createRequest({ id: 'r-old', accountId: 'acct-a', endpoint: '/x', params: {}, queries: ['q'], webhook: null, product: 'places', unit: 'business', unitPriceMicros: 3_000, emptyCostsOne: true, dropDuplicates: false, taskId: null, maxAttempts: 1, createdAt: D0 + 100 });
  const [it] = await s.claimItems('w', 1, 60_000, D0 + 200, ['r-old:0']);
  await s.completeItem({ itemId: it.id, owner: 'w', recordsJson: '[{"a":1},{"a":2}]', count: 2, now: D0 + 300 });
  return ids;
}

for (const [name, open, skip] of [
  ['sqlite', () => openSqliteStore(':memory:'), false],
  ['postgres', () => openScratchPostgresStore(url!), url ? false : PG_SKIP],
] as const) {
  for (const limit of [undefined, 2]) {
    test(`usage roll-up [${name}, ${limit ? `batches of ${limit}` : 'one transaction'}]: day lines, same sums per day and month, same balance; idempotent; newer lines untouched`, { skip }, async () => {
      const s: Store = await open();
      try {
        const accounts = await fill(s);
        const before = await sums(s, accounts);
        const rowsBefore = await usageRows(s);
        const cut = D0 + 2 * DAY;
        let merged = 0;
        for (;;) {
          const n = await s.rollupUsage(cut, limit);
          merged += n;
          if (!limit || n < limit) break;
        }
        assert.equal(merged, 13, 'six lines of days 0 and 1 per account, and the work item\'s');
        assert.deepEqual(await sums(s, accounts), before, 'every day, the month and the balance sum the same');

        const rows = await usageRows(s);
        assert.deepEqual(rows.filter((r) => !r[0].startsWith('day:')), rowsBefore.filter((r) => r[3] >= cut), 'lines after the cut untouched, none before it left');
        assert.deepEqual(rows.filter((r) => r[0].startsWith('day:') && r[0].includes('|acct-a|')), [
          ['day:2026-10-01|acct-a|businesses|business|250000', 7, 1_750_000, D0],
          ['day:2026-10-01|acct-a|businesses|business|300001', 1, 300_001, D0],
          ['day:2026-10-01|acct-a|places|business|3000', 9, 27_000, D0],
          ['day:2026-10-02|acct-a|places|business|3000', 7, 21_000, D0 + DAY],
        ]);

        assert.equal(await s.rollupUsage(cut, limit), 0, 'a second run merges nothing');
        assert.deepEqual(await usageRows(s), rows, 'and changes nothing');
        assert.deepEqual(await sums(s, accounts), before);

        // A later cut merges day 3 as well; the earlier day lines stay as they were.
        assert.equal(await s.rollupUsage(D0 + 4 * DAY), 4);
        assert.deepEqual(await sums(s, accounts), before);
        assert.deepEqual((await usageRows(s)).filter((r) => !r[0].startsWith('day:')), []);
      } finally {
        await s.close();
      }
    });
  }
}
