/**
 * Fair claims end to end (issue 28, src/store/requests/fairness.ts): account A has 2,000 queued
 * queries of 1 s each on 16 workers; account B's one-query synchronous request answers within 10 s
 * (FIFO made it wait 124 s), on the embedded queue over SQLite and over PostgreSQL.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, until } from './support/harness.ts';
import { bothStores } from './support/stores.ts';

const stores = bothStores();

for (const [name, skip, open] of stores) {
  test(`[${name}] B's one-query synchronous request behind A's 2,000 queued items answers within 10 s`, { skip, timeout: 120_000 }, async (t) => {
    const db = open();
    const h = await startHarness({ backendEnv: db.env, settings: { concurrency: 16 } });
    try {
      const queries = Array.from({ length: 1000 }, (_, i) => `query=${encodeURIComponent(`sleep=1000;i=${i}`)}`).join('&');
      const a = await Promise.all([h.json(`/maps/search?${queries}`), h.json(`/maps/search?${queries}`)]);
      assert.deepEqual(a.map((r) => r.status), [202, 202]);
      await until(async () => (await h.svc.ctx.store.itemCounts()).leased >= 16, 20_000, "A's items to run");
      const b = await h.newAccount();
      const t0 = Date.now();
      const res = await h.json('/maps/search?query=n=1&async=false', { key: b.key });
      const ms = Date.now() - t0;
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.data[0].length, 1);
      t.diagnostic(`B answered in ${ms} ms`);
      assert.ok(ms < 10_000, `answered in ${ms} ms`);
      const counts = await h.svc.ctx.store.itemCounts();
      assert.ok(counts.queued > 1_500, `A's backlog still waits (${counts.queued} queued): B did not wait for it`);
      for (const r of a) await h.json(`/requests/${r.body.id}`, { method: 'DELETE' });
    } finally {
      await h.close();
      await db.drop();
    }
  });
}
