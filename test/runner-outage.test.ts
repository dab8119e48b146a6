/**
 * A store outage at the moment a worker records a finished query must not end that query as failed:
 * the runner leaves the item leased, the lease runs out, the item runs again and is billed once.
 * (Before the fix the runner fell through to `failItem`, which — if the store answered again by then,
 * e.g. after "too many connections" — ended the query for good with "internal: ..." and no records.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../src/store/sqlite/store.ts';
import { EmbeddedQueue } from '../src/engine/backends/embedded.ts';
import { Runner } from '../src/engine/runner.ts';
import type { Store } from '../src/store/contract.ts';
import { testAdapter } from './support/test-adapter.ts';

test('completeItem failing with a store outage leaves the item to its lease; it runs again and is billed once', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-runner-outage-'));
  const real = await openSqliteStore(join(dir, 'trawl.db'));
  try {
    let outages = 1;
    // The real store, except that the first completion meets "too many connections" (PostgreSQL 53300).
    const store = new Proxy(real, {
      get(target, prop, receiver) {
        if (prop === 'completeItem') {
          return async (...args: Parameters<Store['completeItem']>) => {
            if (outages-- > 0) throw Object.assign(new Error('sorry, too many clients already'), { code: '53300' });
            return target.completeItem(...args);
          };
        }
        const v = Reflect.get(target, prop, receiver);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    }) as Store;
    await real.createAccount({ id: 'a', name: 'a', balanceMicros: 10_000_000, creditLimitMicros: 0, currency: 'usd', pastDue: false, webhookSecret: 's', webhookUrl: null, ratePerSec: 10, burst: 10 });
    await real.createRequest({ id: 'r', accountId: 'a', endpoint: '/maps/search', params: {}, queries: ['n=2'], webhook: null, product: 'p', unit: 'place', unitPriceMicros: 500_000, emptyCostsOne: false, dropDuplicates: false, taskId: null, maxAttempts: 4, createdAt: Date.now() });
    const adapter = testAdapter('/maps/search');
    const runner = new Runner({ store, queue: new EmbeddedQueue(store), adapterFor: () => adapter, fetchStep: async () => { throw new Error('no fetch'); }, owner: 'w', leaseMs: 100 });

    const [first] = await store.claimItems('w', 1, 100, Date.now());
    await assert.rejects(runner.run(first), /too many clients/, 'the outage surfaces to the queue, which logs it');
    const afterOutage = await real.getRequest('r');
    assert.equal(afterOutage?.status, 'Pending', 'the query did not end');
    assert.equal(afterOutage?.queriesDone, 0);

    await new Promise((r) => setTimeout(r, 150));
    const [again] = await store.claimItems('w2', 1, 60_000, Date.now());
    assert.equal(again?.id, first.id, 'the item is runnable again once its lease ran out');
    const r2 = new Runner({ store, queue: new EmbeddedQueue(store), adapterFor: () => adapter, fetchStep: async () => { throw new Error('no fetch'); }, owner: 'w2', leaseMs: 60_000 });
    await r2.run(again);
    const done = await real.getRequest('r');
    assert.equal(done?.status, 'Success');
    assert.equal(done?.records, 2);
    assert.equal(done?.usage, 2, 'billed once');
    const results = [];
    for await (const q of real.readResults('r')) results.push(q);
    assert.equal(results.length, 1);
    assert.equal(results[0].count, 2);
    assert.equal(results[0].error, null);
    assert.equal(await real.addBalance('a', 0), 9_000_000, 'balance moved by 2 x 0.5 once');
  } finally {
    await real.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an adapter error with a network-like code still fails or retries the item normally', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-runner-outage-'));
  const store = await openSqliteStore(join(dir, 'trawl.db'));
  try {
    await store.createAccount({ id: 'a', name: 'a', balanceMicros: 10_000_000, creditLimitMicros: 0, currency: 'usd', pastDue: false, webhookSecret: 's', webhookUrl: null, ratePerSec: 10, burst: 10 });
    await store.createRequest({ id: 'r', accountId: 'a', endpoint: '/maps/search', params: {}, queries: ['x'], webhook: null, product: 'p', unit: 'place', unitPriceMicros: 500_000, emptyCostsOne: false, dropDuplicates: false, taskId: null, maxAttempts: 1, createdAt: Date.now() });
    // Only the store's own outage keeps an item leased; an adapter's ECONNREFUSED is the adapter's failure.
    const adapter = { kind: 'local' as const, endpoint: '/maps/search', async lookup() { throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }); } };
    const runner = new Runner({ store, queue: new EmbeddedQueue(store), adapterFor: () => adapter, fetchStep: async () => { throw new Error('no fetch'); }, owner: 'w', leaseMs: 60_000 });
    const [item] = await store.claimItems('w', 1, 60_000, Date.now());
    await runner.run(item);
    const r = await store.getRequest('r');
    assert.notEqual(r?.status, 'Pending', 'the request ended: its one query failed for good');
    assert.equal(r?.queriesDone, 1);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
