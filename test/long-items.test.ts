/**
 * Long items do not own the service (issue 39 item 3, src/engine/lending.ts), over HTTP on both
 * stores, scaled down: account A's 16 paged queries of ~20 s each (60 pages of 300 ms from a
 * constructed loopback source) hold all 16 slots; account B's 200-query request must complete within
 * twice its own time alone (before the slicing it waited for A's items to end). Account C's long
 * queries, which can only run in slots A lends, are given back when the lending ends and resume
 * from their checkpoints: every record of A and C exactly once, no attempt spent on a pause.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, until, type Harness } from './support/harness.ts';
import { bothStores } from './support/stores.ts';
import { pagedAdapter, startPagedServer } from './support/paged-source.ts';
import { testRegistry } from './support/test-adapter.ts';

const PAGES = 60;

async function bRequest(h: Harness, key: string, tag: string): Promise<number> {
  const queries = Array.from({ length: 200 }, (_, i) => `query=${encodeURIComponent(`sleep=400;i=${i};${tag}`)}`).join('&');
  const t0 = Date.now();
  const res = await h.json(`/maps/search?${queries}&async=false`, { key });
  assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
  assert.equal(res.body.data.length, 200);
  return Date.now() - t0;
}

async function finished(h: Harness, id: string, key?: string): Promise<any> {
  let body: any;
  await until(async () => {
    const r = await h.json(`/requests/${id}`, { key });
    body = r.body;
    return r.status === 200 && body.status !== 'Pending';
  }, 180_000, `request ${id} to end`);
  return body;
}

function assertWhole(body: any, queries: string[], pages: number): void {
  assert.equal(body.status, 'Success', JSON.stringify(body).slice(0, 300));
  queries.forEach((q, k) => assert.deepEqual(body.data[k].map((r: any) => r.id), Array.from({ length: pages }, (_, i) => `${q}-${i}`), `${q}: every record once, in order`));
}

for (const [name, skip, open] of bothStores()) {
  test(`[${name}] a 200-query request of another account completes within 2x its own time while 16 long items run`, { skip, timeout: 300_000 }, async (t) => {
    const db = open();
    const src = await startPagedServer({ total: PAGES, pageSize: 1, delayMs: 300 });
    const h = await startHarness({
      backendEnv: db.env, settings: { concurrency: 16, sliceMs: 1_000, allowPrivateTargets: true },
      env: { ALLOW_PRIVATE_TARGETS: 'true', PER_HOST_CONCURRENCY: '64' },
      adapters: testRegistry(undefined, [pagedAdapter(src.url)]),
    });
    try {
      const b = await h.newAccount();
      const c = await h.newAccount();
      const alone = await bRequest(h, b.key, 'alone');

      const aQueries = Array.from({ length: 16 }, (_, i) => `a${i}`);
      const a = await h.json(`/bizdir-reviews?${aQueries.map((q) => `query=${q}`).join('&')}&limit=1000`);
      assert.equal(a.status, 202, JSON.stringify(a.body));
      await until(async () => (await h.svc.ctx.store.itemCounts()).leased >= 16, 30_000, "A's 16 items to hold every slot");
      // Past their first slice: every slot is held by a long item.
      await new Promise((r) => setTimeout(r, 1_500));
      const shared = await bRequest(h, b.key, 'shared');
      t.diagnostic(`B alone ${alone} ms, beside A's 16 long items ${shared} ms (${(shared / alone).toFixed(2)}x)`);
      const leftA = [...src.hits.keys()].filter((k) => k.startsWith('a')).length;
      assert.ok(leftA < 16 * PAGES, "A's items were still running when B's request ended");
      assert.ok(shared < 2 * alone, `B took ${shared} ms beside the long items, ${alone} ms alone`);

      // C's long items run in slots A lends, and go back to the queue when a loan ends.
      const cQueries = ['c0', 'c1', 'c2', 'c3'];
      const cReq = await h.json(`/bizdir-reviews?${cQueries.map((q) => `query=${q}`).join('&')}&limit=1000`, { key: c.key });
      assert.equal(cReq.status, 202);

      assertWhole(await finished(h, a.body.id), aQueries, PAGES);
      assertWhole(await finished(h, cReq.body.id, c.key), cQueries, PAGES);
      // A pause, a loan and a give-back spend no attempt; every page was fetched once (resumed from checkpoints).
      const twice = [...src.hits].filter(([, n]) => n > 1);
      assert.deepEqual(twice, [], 'no page fetched twice');
      const loans = Object.fromEntries((await h.svc.metrics.slotLoans.get()).values.map((v) => [v.labels.event, v.value]));
      t.diagnostic(`loans: ${JSON.stringify(loans)}`);
      assert.ok((loans.lent ?? 0) >= 200, 'B and C ran in lent slots');
      assert.ok((loans.given_back ?? 0) >= 1, "C's items were given back when a loan ended");
    } finally {
      await h.close();
      await src.close();
      await db.drop();
    }
  });
}
