/**
 * The 200-monitor cap under concurrent creates, over HTTP on both stores (issue 39: 50 concurrent
 * creates at the cap reached 201-225 on PostgreSQL): the count and the insert are one transaction
 * (src/store/monitors), so the account ends at exactly 200 and every refused create is a 422.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from './support/harness.ts';
import { bothStores } from './support/stores.ts';
import { monitorStoreOf } from '../src/store/monitors/index.ts';
import { monitor } from '../src/store/monitors/conformance.ts';
import { MAX_MONITORS } from '../src/app/monitors.ts';

for (const [name, skip, open] of bothStores()) {
  test(`[${name}] 50 concurrent creates near the cap: never above ${MAX_MONITORS}`, { skip, timeout: 120_000 }, async () => {
    const db = open();
    const h = await startHarness({ backendEnv: db.env });
    try {
      const store = monitorStoreOf(h.svc.ctx.store);
      for (let i = 0; i < MAX_MONITORS - 5; i++) await store.createMonitor(monitor(`pre${i}`, { accountId: h.account.id, status: 'paused', nextRunAt: null }));
      const body = JSON.stringify({ endpoint: '/maps/search', queries: ['n=1'], schedule: { every_s: 3600 }, status: 'paused' });
      const answers = await Promise.all(Array.from({ length: 50 }, () => h.json('/monitors', { method: 'POST', body, headers: { 'content-type': 'application/json' } })));
      const statuses = answers.map((a) => a.status);
      assert.equal(statuses.filter((s) => s === 200).length, 5, JSON.stringify(statuses));
      assert.equal(statuses.filter((s) => s === 422).length, 45);
      assert.ok(answers.filter((a) => a.status === 422).every((a) => /at most 200 monitors/.test(a.body.errorMessage)));
      assert.equal(await store.countMonitors(h.account.id), MAX_MONITORS);
    } finally {
      await h.close();
      await db.drop();
    }
  });
}
