/**
 * What the janitor's purge leaves after the history period (issue 15, bounded storage), on both
 * stores: the request, its work items, results and its ended webhook delivery go; a delivery still
 * retrying stays; webhook call-log rows older than the period go; usage lines (the billing ledger)
 * stay; the store reports a size.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Store } from './contract.ts';
import { openSqliteStore, SqliteStore } from './sqlite/store.ts';
import type { PostgresStore } from './postgres/store.ts';
import { PG_SKIP, openScratchPostgresStore, pgTestUrl } from './postgres/testing.ts';

const url = pgTestUrl();

/** Every webhook delivery row, whatever its state (no store method lists ended ones). */
async function deliveryIds(s: Store): Promise<string[]> {
  const sql = 'SELECT id FROM webhook_deliveries ORDER BY id';
  const rows = s instanceof SqliteStore ? s.db.prepare(sql).all() : (await (s as PostgresStore).pool.query(`SET search_path TO ${(s as PostgresStore).schema}; ${sql}`) as any)[1].rows;
  return (rows as { id: string }[]).map((r) => r.id);
}

for (const [name, open, skip] of [
  ['sqlite', () => openSqliteStore(':memory:'), false],
  ['postgres', () => openScratchPostgresStore(url!), url ? false : PG_SKIP],
] as const) {
  test(`purge after the history period [${name}]: requests, items, results, ended webhook deliveries and old call-log rows go; retrying deliveries and usage stay`, { skip }, async () => {
    const s: Store = await open();
    try {
      const a = await s.createAccount({ id: 'acct-purge', name: 'a', balanceMicros: 100_000_000, creditLimitMicros: 0, currency: 'usd', pastDue: false, webhookSecret: 's', webhookUrl: 'http://127.0.0.1:9/hook', ratePerSec: 1, burst: 1, createdAt: 1 });
      for (const id of ['r-delivered', 'r-retrying']) {
        await s.createRequest({ id, accountId: a.id, endpoint: '/x', params: {}, queries: ['q'], webhook: null, product: 'p', unit: 'u', unitPriceMicros: 1_000_000, emptyCostsOne: true, dropDuplicates: false, taskId: null, maxAttempts: 1, createdAt: 1_000 });
        const [it] = await s.claimItems('w', 1, 60_000, 2_000, [`${id}:0`]);
        await s.completeItem({ itemId: it.id, owner: 'w', recordsJson: '[{"a":1}]', count: 1, now: 2_000 });
      }
      const due = await s.claimDueWebhooks(3_000, 10, 1_000);
      assert.deepEqual(due.map((d) => d.id).sort(), ['r-delivered', 'r-retrying']);
      await s.recordWebhookAttempt('r-delivered', 200, true, null, 3_000);
      await s.recordWebhookAttempt('r-retrying', 500, false, 10_000_000, 3_000);
      await s.recordWebhookAttempt('r-retrying', 502, false, 10_000_000, 6_000);
      assert.deepEqual((await s.listWebhookCalls(a.id, 0, 10)).map((c) => c.date), [6, 3], 'failed calls are logged');
      assert.ok(((await s.sizeBytes?.()) ?? 0) > 0, 'the store reports its size');
      assert.deepEqual(await deliveryIds(s), ['r-delivered', 'r-retrying']);

      assert.equal(await s.purge(5_000, 5_000, 100), 2);
      assert.equal(await s.getRequest('r-delivered'), null);
      assert.equal(await s.getRequest('r-retrying'), null);
      assert.deepEqual(await deliveryIds(s), ['r-retrying'], 'the ended delivery went; the one still retrying stays');
      assert.deepEqual((await s.listWebhookCalls(a.id, 0, 10)).map((c) => c.date), [6], 'call-log rows past the history period go, newer ones stay');
      const usage = await s.usageForPeriod(a.id, 0, 10_000);
      assert.equal(usage.reduce((n, u) => n + u.quantity, 0), 2, 'usage lines stay (billing ledger)');
      assert.deepEqual(await s.itemCounts(), { queued: 0, leased: 0, done: 0, failed: 0, cancelled: 0 }, 'work items gone');
    } finally {
      await s.close();
    }
  });
}
