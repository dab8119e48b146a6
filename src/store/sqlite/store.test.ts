import { storeConformance } from '../conformance.ts';
import { openSqliteStore } from './store.ts';

storeConformance('sqlite', () => openSqliteStore(':memory:'));

import { test } from 'node:test';
import assert from 'node:assert/strict';

test('group commit: a failing write in a batch fails alone; the others commit', async () => {
  const s = await openSqliteStore(':memory:');
  try {
    const a = await s.createAccount({ id: 'acct', name: 'a', balanceMicros: 1_000_000, creditLimitMicros: 0, currency: 'usd', pastDue: false, webhookSecret: 's', webhookUrl: null, ratePerSec: 1, burst: 1 });
    const base = { accountId: a.id, endpoint: '/x', params: {}, queries: ['q'], webhook: null, product: 'p', unit: 'u', unitPriceMicros: 0, emptyCostsOne: false, dropDuplicates: false, taskId: null, maxAttempts: 1, createdAt: 1 };
    // Same turn of the event loop: one batch. The second reuses an id and must fail by itself.
    const results = await Promise.allSettled([
      s.createRequest({ ...base, id: 'r1' }),
      s.createRequest({ ...base, id: 'r1' }),
      s.createRequest({ ...base, id: 'r2' }),
    ]);
    assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled']);
    assert.ok(await s.getRequest('r1'));
    assert.ok(await s.getRequest('r2'));
  } finally { await s.close(); }
});

test('a purge returns the freed pages to the file system (auto_vacuum = INCREMENTAL on a new database)', async () => {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = mkdtempSync(join(tmpdir(), 'trawl-vacuum-'));
  // Text as stored (no compression): the rows must fill enough pages for the shrink to show.
  const s = await openSqliteStore(join(dir, 'trawl.db'), { compression: null });
  try {
    assert.equal(s.db.pragma('auto_vacuum', { simple: true }), 2, 'incremental');
    const a = await s.createAccount({ id: 'acct', name: 'a', balanceMicros: 1_000_000, creditLimitMicros: 0, currency: 'usd', pastDue: false, webhookSecret: 's', webhookUrl: null, ratePerSec: 1, burst: 1 });
    const big = JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ name: `place ${i}`, text: 'x'.repeat(500) })));
    for (let i = 0; i < 20; i++) {
      await s.createRequest({ id: `r${i}`, accountId: a.id, endpoint: '/x', params: {}, queries: ['q'], webhook: null, product: 'p', unit: 'u', unitPriceMicros: 0, emptyCostsOne: false, dropDuplicates: false, taskId: null, maxAttempts: 1, createdAt: 1 });
      const [it] = await s.claimItems('w', 1, 60_000, 2, [`r${i}:0`]);
      await s.completeItem({ itemId: it.id, owner: 'w', recordsJson: big, count: 200, now: 2 });
    }
    const pages = () => s.db.pragma('page_count', { simple: true }) as number;
    const full = pages();
    assert.equal(await s.purge(10, 0, 100), 20);
    assert.equal(s.db.pragma('freelist_count', { simple: true }), 0, 'no free page left inside the file');
    assert.ok(pages() < full / 2, `the file shrank: ${full} → ${pages()} pages`);
  } finally { await s.close(); rmSync(dir, { recursive: true, force: true }); }
});

test("a completion writes its request's row once: counted and ended in one update, on the last item only ended", async () => {
  const s = await openSqliteStore(':memory:');
  try {
    const a = await s.createAccount({ id: 'acct', name: 'a', balanceMicros: 1_000_000, creditLimitMicros: 0, currency: 'usd', pastDue: false, webhookSecret: 's', webhookUrl: null, ratePerSec: 1, burst: 1 });
    await s.createRequest({ id: 'r', accountId: a.id, endpoint: '/x', params: {}, queries: ['q0', 'q1'], webhook: null, product: 'p', unit: 'u', unitPriceMicros: 1_000, emptyCostsOne: false, dropDuplicates: false, taskId: null, maxAttempts: 1, createdAt: 1 });
    // Each update of a requests row, as the completion left it.
    s.db.exec(`CREATE TEMP TABLE row_writes (queries_done INTEGER, usage INTEGER, records INTEGER, status TEXT, finished_at INTEGER);
               CREATE TEMP TRIGGER count_row_writes AFTER UPDATE ON requests BEGIN
                 INSERT INTO row_writes VALUES (NEW.queries_done, NEW.usage, NEW.records, NEW.status, NEW.finished_at); END`);
    const writes = () => s.db.prepare('SELECT * FROM row_writes').all();
    const items = await s.claimItems('w', 2, 60_000, 2);
    assert.equal(items.length, 2);
    const first = await s.completeItem({ itemId: 'r:0', owner: 'w', recordsJson: '[{"a":1},{"a":2}]', count: 2, now: 3 });
    assert.equal(first.finished, null, 'one item still runs');
    assert.deepEqual(writes(), [{ queries_done: 1, usage: 2, records: 2, status: 'Pending', finished_at: null }]);
    const last = await s.completeItem({ itemId: 'r:1', owner: 'w', recordsJson: '[{"a":3}]', count: 1, now: 4 });
    assert.equal(last.finished?.status, 'Success');
    assert.equal(last.finished?.usage, 3);
    assert.equal(last.finished?.finishedAt, 4);
    assert.deepEqual(writes().slice(1), [{ queries_done: 2, usage: 3, records: 3, status: 'Success', finished_at: 4 }], 'the last item counted and ended the request in one update');
    // A stale completion of the same item writes nothing.
    assert.equal((await s.completeItem({ itemId: 'r:1', owner: 'w', recordsJson: '[]', count: 0, now: 5 })).applied, false);
    assert.equal(writes().length, 2);
  } finally { await s.close(); }
});

test('an ending completion, failure or cancellation says whether it made a webhook delivery; one that ends nothing says nothing', async () => {
  const s = await openSqliteStore(':memory:');
  try {
    const a = await s.createAccount({ id: 'acct', name: 'a', balanceMicros: 1_000_000, creditLimitMicros: 0, currency: 'usd', pastDue: false, webhookSecret: 's', webhookUrl: null, ratePerSec: 1, burst: 1 });
    let n = 0;
    const request = (queries: string[], webhook: string | null = null) => ({ id: `r${n++}`, accountId: a.id, endpoint: '/x', params: {}, queries, webhook, product: 'p', unit: 'u',
      unitPriceMicros: 0, emptyCostsOne: false, dropDuplicates: false, taskId: null, maxAttempts: 1, createdAt: 1 });
    const end = async (queries: string[], how: 'complete' | 'fail' | 'cancel' = 'complete', webhook: string | null = null) => {
      const r = request(queries, webhook);
      await s.createRequest(r);
      if (how === 'cancel') return s.cancelRequest(r.id, 3_000);
      const [it] = await s.claimItems('w', 1, 60_000, 2_000, [`${r.id}:0`]);
      return how === 'fail' ? s.failItem(it.id, 'w', 'gone', null, 3_000) : s.completeItem({ itemId: it.id, owner: 'w', recordsJson: '[]', count: 0, now: 3_000 });
    };
    assert.equal((await end(['x'])).deliveries, false, 'no webhook: none');
    assert.equal((await end(['x'], 'fail')).deliveries, false, 'failed, no webhook: none');
    assert.equal((await end(['x'], 'cancel')).deliveries, false, 'cancelled, no webhook: none');
    assert.equal((await end(['x'], 'complete', 'https://example.com/h')).deliveries, true, 'its own webhook');
    assert.equal((await end(['x'], 'fail', 'https://example.com/h')).deliveries, true, 'failed, its own webhook');
    const two = await end(['x', 'y']);
    assert.deepEqual([two.finished, two.deliveries], [null, undefined], 'not ended');
    await s.createWebhookSubscription({ id: 'sub', accountId: a.id, url: 'https://example.com/s', events: ['request.finished'], description: null, created: 1 }, 10);
    assert.equal((await end(['x'])).deliveries, true, 'a subscription to request.finished');
    assert.equal((await end(['x'], 'cancel')).deliveries, true, 'cancelled, a subscription to request.finished');
    assert.equal((await s.claimDueWebhooks(5_000, 10, 60_000)).length, 4, 'the four made');
  } finally { await s.close(); }
});
