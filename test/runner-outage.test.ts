/**
 * A store outage while a worker runs a query must not end that query as failed: neither when it
 * records the finished query nor when it reads the request or the account first (a pool that lends
 * no connection within its timeout on a loaded box: "PostgreSQL unavailable: timeout exceeded when
 * trying to connect"). The runner hands the item back to the queue; it runs again and is billed once.
 * When the store refuses the hand-back too, the item is left to its lease, which runs out.
 * (Before: the runner fell through to `failItem(…, null)`, ending the query for good with
 * "internal: PostgreSQL unavailable: …" and no records.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../src/store/sqlite/store.ts';
import { EmbeddedQueue } from '../src/engine/backends/embedded.ts';
import { Runner } from '../src/engine/runner.ts';
import { StoreUnavailableError } from '../src/store/postgres/errors.ts';
import type { Store } from '../src/store/contract.ts';
import type { WorkItem } from '../src/store/requests/contract.ts';
import { testAdapter } from './support/test-adapter.ts';

type Faults = Partial<Record<keyof Store, number>>;

/** The real store, except that the first `faults[method]` calls of each method meet `error`. */
function faulty(real: Store, faults: Faults, error: () => Error): Store {
  return new Proxy(real, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver);
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        const k = prop as keyof Store;
        if ((faults[k] ?? 0) > 0) {
          faults[k]!--;
          return Promise.reject(error());
        }
        return v.apply(target, args);
      };
    },
  }) as Store;
}

const tooMany = () => Object.assign(new Error('sorry, too many clients already'), { code: '53300' });
const poolTimeout = () => new StoreUnavailableError('PostgreSQL unavailable: timeout exceeded when trying to connect');

async function withRequest(fn: (real: Store) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-runner-outage-'));
  const real = await openSqliteStore(join(dir, 'trawl.db'));
  try {
    await real.createAccount({ id: 'a', name: 'a', balanceMicros: 10_000_000, creditLimitMicros: 0, currency: 'usd', pastDue: false, webhookSecret: 's', webhookUrl: null, ratePerSec: 10, burst: 10 });
    await real.createRequest({ id: 'r', accountId: 'a', endpoint: '/maps/search', params: {}, queries: ['n=2'], webhook: null, product: 'p', unit: 'place', unitPriceMicros: 500_000, emptyCostsOne: false, dropDuplicates: false, taskId: null, maxAttempts: 4, createdAt: Date.now() });
    await fn(real);
  } finally {
    await real.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const runnerOn = (store: Store, owner: string, leaseMs = 60_000) => {
  const adapter = testAdapter('/maps/search');
  return new Runner({ store, queue: new EmbeddedQueue(store), adapterFor: () => adapter, fetchStep: async () => { throw new Error('no fetch'); }, owner, leaseMs, backoffBaseMs: 20 });
};

/** Claims the item again (waiting for its retry or its lease), runs it healthy, checks it ended once. */
async function endsOnce(real: Store, id: string): Promise<void> {
  let again;
  for (let i = 0; i < 100 && !again; i++) {
    [again] = await real.claimItems('w2', 1, 60_000, Date.now());
    if (!again) await new Promise((r) => setTimeout(r, 20));
  }
  assert.equal(again?.id, id, 'the item is runnable again');
  await runnerOn(real, 'w2').run(again!);
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
}

for (const [what, faults, error, asClaimed] of [
  ['completeItem (too many connections)', { completeItem: 1 }, tooMany, (w: WorkItem) => w],
  // An item that does not carry its price (claimed elsewhere) has the request read for it.
  ['getRequest before the steps (pool timeout)', { getRequest: 1 }, poolTimeout, (w: WorkItem) => ({ ...w, unitPriceMicros: undefined })],
  // An item that does not carry what its account can pay (claimed elsewhere) has the purse's first ask read it.
  ['getAccount of a purse (pool timeout)', { getAccount: 1 }, poolTimeout, (w: WorkItem) => ({ ...w, payable: undefined })],
] as Array<[string, Faults, () => Error, (w: WorkItem) => WorkItem]>) {
  test(`an outage at ${what} hands the item back: it runs again and is billed once`, async () => {
    await withRequest(async (real) => {
      const [claimed] = await real.claimItems('w', 1, 60_000, Date.now());
      const first = asClaimed(claimed);
      await runnerOn(faulty(real, { ...faults }, error), 'w').run(first);
      const after = await real.getRequest('r');
      assert.equal(after?.status, 'Pending', 'the query did not end');
      assert.equal(after?.queriesDone, 0);
      await endsOnce(real, first.id);
    });
  });
}

test('a claimed item carries what its account can pay: the purse reads no account for its first ask (issue 37)', async () => {
  await withRequest(async (real) => {
    const [first] = await real.claimItems('w', 1, 60_000, Date.now());
    assert.equal(first.payable?.micros, 10_000_000);
    // A read of the account would meet the outage and hand the item back; the test adapter asks once.
    await runnerOn(faulty(real, { getAccount: 1 }, poolTimeout), 'w').run(first);
    const done = await real.getRequest('r');
    assert.equal(done?.status, 'Success');
    assert.equal(done?.usage, 2);
    assert.equal(await real.addBalance('a', 0), 9_000_000);
  });
});

test('a claimed item carries its price: the runner reads no request row before the steps (issue 37)', async () => {
  await withRequest(async (real) => {
    const [first] = await real.claimItems('w', 1, 60_000, Date.now());
    assert.equal(first.unitPriceMicros, 500_000);
    // A read of the request would meet the outage and hand the item back; none is made.
    await runnerOn(faulty(real, { getRequest: 1 }, poolTimeout), 'w').run(first);
    const done = await real.getRequest('r');
    assert.equal(done?.status, 'Success');
    assert.equal(done?.usage, 2, 'billed at the carried price');
    assert.equal(await real.addBalance('a', 0), 9_000_000);
  });
});

test('an outage the hand-back meets too leaves the item to its lease; it runs again once the lease ran out', async () => {
  await withRequest(async (real) => {
    const [first] = await real.claimItems('w', 1, 100, Date.now());
    await assert.rejects(runnerOn(faulty(real, { completeItem: 1, failItem: 1 }, tooMany), 'w', 100).run(first), /too many clients/, 'the outage surfaces to the queue, which logs it');
    const after = await real.getRequest('r');
    assert.equal(after?.status, 'Pending', 'the query did not end');
    assert.equal((await real.claimItems('w3', 1, 60_000, Date.now())).length, 0, 'still leased');
    await new Promise((r) => setTimeout(r, 150));
    await endsOnce(real, first.id);
  });
});

test('an adapter error with a network-like code still fails or retries the item normally', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-runner-outage-'));
  const store = await openSqliteStore(join(dir, 'trawl.db'));
  try {
    await store.createAccount({ id: 'a', name: 'a', balanceMicros: 10_000_000, creditLimitMicros: 0, currency: 'usd', pastDue: false, webhookSecret: 's', webhookUrl: null, ratePerSec: 10, burst: 10 });
    await store.createRequest({ id: 'r', accountId: 'a', endpoint: '/maps/search', params: {}, queries: ['x'], webhook: null, product: 'p', unit: 'place', unitPriceMicros: 500_000, emptyCostsOne: false, dropDuplicates: false, taskId: null, maxAttempts: 1, createdAt: Date.now() });
    // Only the store's own outage hands an item back; an adapter's ECONNREFUSED is the adapter's failure.
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
