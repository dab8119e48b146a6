import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { completer, queueConformance, submit, until } from '../conformance.ts';
import { PostgresQueue } from './postgres.ts';
import { PG_SKIP, openScratchPostgresStore, pgTestUrl } from '../../store/postgres/testing.ts';
import { PostgresStore } from '../../store/postgres/store.ts';

const url = pgTestUrl();
const skip = url ? false : PG_SKIP;

queueConformance('postgres', async () => {
  const store = await openScratchPostgresStore(url!);
  return { store, queue: new PostgresQueue(store, { pollMs: 100 }), queue2: new PostgresQueue(store, { pollMs: 100 }) };
}, { skip });

test('postgres queue: an enqueue in another process wakes the worker at once (NOTIFY), also after the listener was cut', { skip, timeout: 60_000 }, async () => {
  const workerStore = await openScratchPostgresStore(url!);
  // The API side: its own pool on the same schema, never started.
  const apiStore = new PostgresStore(url!, { schema: workerStore.schema! });
  const api = new PostgresQueue(apiStore);
  const worker = new PostgresQueue(workerStore, { pollMs: 60_000 });
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    worker.start(completer(workerStore, 'w', new Map()), { concurrency: 4, owner: 'w', leaseMs: 30_000 });
    await until(() => worker.listenerPid !== null, 5_000, 'the listener');
    await new Promise((r) => setTimeout(r, 100)); // the start-up pump has run; from here only NOTIFY wakes it
    const a = await submit(apiStore, 3);
    const t0 = Date.now();
    await api.enqueue(a.itemIds.map((id) => ({ id })));
    await until(async () => (await apiStore.getRequest(a.id))?.status === 'Success', 5_000, 'the notified items');
    assert.ok(Date.now() - t0 < 2_000, `took ${Date.now() - t0} ms with a 60 s poll`);

    const pid = worker.listenerPid!;
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    await until(() => worker.listenerPid !== null && worker.listenerPid !== pid, 10_000, 'the listener to reconnect');
    await new Promise((r) => setTimeout(r, 100));
    const b = await submit(apiStore, 2);
    await api.enqueue(b.itemIds.map((id) => ({ id })));
    await until(async () => (await apiStore.getRequest(b.id))?.status === 'Success', 5_000, 'items notified after the reconnect');
  } finally {
    await admin.end();
    await worker.close();
    await api.close();
    await apiStore.close();
    await workerStore.close();
  }
});

test('postgres queue: items leased by their insert run at once, with no claim and no NOTIFY; past its free slots an insert is claimed as before', { skip, timeout: 60_000 }, async () => {
  const store = await openScratchPostgresStore(url!);
  const worker = new PostgresQueue(store, { pollMs: 60_000 });
  const seen = new Map<string, number>();
  let release = () => {};
  const held = new Promise<void>((r) => { release = r; });
  const done = completer(store, 'w', seen);
  const started = new Set<string>();
  try {
    worker.start(async (item) => { started.add(item.id); if (item.query === 'hold') await held; await done(item); }, { concurrency: 3, owner: 'w', leaseMs: 30_000 });
    await until(() => worker.listenerPid !== null, 5_000, 'the listener');
    await new Promise((r) => setTimeout(r, 100)); // the start-up claim has run
    const claims: number[] = [];
    const claim = store.claimItems;
    store.claimItems = (...a) => { claims.push(a[1]); return claim(...a); };
    const notifies: string[] = [];
    const query = store.pool.query.bind(store.pool) as (...a: unknown[]) => unknown;
    (store.pool as { query: unknown }).query = (...a: unknown[]) => { if (String(a[0]).includes('pg_notify')) notifies.push(String(a[0])); return query(...a); };
    const a = await submit(store, 2);
    await worker.enqueue(a.itemIds.map((id) => ({ id })));
    await until(async () => (await store.getRequest(a.id))?.status === 'Success', 5_000, 'the items leased at their insert');
    assert.deepEqual([claims, notifies], [[], []]);
    assert.deepEqual(a.itemIds.map((id) => seen.get(id)), [1, 1]);
    // Two slots held: a request of three is inserted queued, announced and claimed, one slot at a time.
    const hold = await store.createAccount({ id: 'h', name: 'h', balanceMicros: 1e15, creditLimitMicros: 0, currency: 'usd', pastDue: false,
      webhookSecret: 's', webhookUrl: null, ratePerSec: 1e6, burst: 1e6 });
    await store.createRequest({ id: 'hold', accountId: hold.id, endpoint: '/test', params: {}, queries: ['hold', 'hold'], webhook: null, product: 'p', unit: 'u',
      unitPriceMicros: 0, emptyCostsOne: false, dropDuplicates: false, taskId: null, maxAttempts: 3, createdAt: Date.now() });
    await worker.enqueue([{ id: 'hold:0' }, { id: 'hold:1' }]);
    await until(() => started.has('hold:0') && started.has('hold:1'), 5_000, 'the held items');
    const b = await submit(store, 3);
    await worker.enqueue(b.itemIds.map((id) => ({ id })));
    await until(() => seen.get(b.itemIds[0]) === 1, 5_000, 'the first item claimed');
    // Each claim asks for the one free slot (the next as the item before it ends, the two held slots never).
    assert.ok(claims.length >= 1 && claims.every((n) => n === 1), `claims of ${claims.join(', ')}`);
    assert.equal(notifies.length, 1);
    release();
    await until(async () => (await store.getRequest(b.id))?.status === 'Success', 5_000, 'the rest claimed as slots free');
    assert.deepEqual(b.itemIds.map((id) => seen.get(id)), [1, 1, 1]);
  } finally {
    release();
    await worker.close();
    await store.close();
  }
});

test('postgres queue: a submit while the previous runs finish their capture (past their slot) is leased at its insert, no claim (issue 37)', { skip, timeout: 60_000 }, async () => {
  const store = await openScratchPostgresStore(url!);
  const worker = new PostgresQueue(store, { pollMs: 60_000 });
  const seen = new Map<string, number>();
  const done = completer(store, 'w', seen);
  let release = () => {};
  const tails = new Promise<void>((r) => { release = r; });
  try {
    // Each run ends its item in the store, frees its slot, then waits in its tail (the business capture).
    worker.start(async (item, slotFree) => { await done(item); slotFree?.(); await tails; }, { concurrency: 2, owner: 'w', leaseMs: 30_000 });
    await until(() => worker.listenerPid !== null, 5_000, 'the listener');
    await new Promise((r) => setTimeout(r, 100)); // the start-up claim has run
    const claims: number[] = [];
    const claim = store.claimItems;
    store.claimItems = (...a) => { claims.push(a[1]); return claim(...a); };
    const a = await submit(store, 2);
    await worker.enqueue(a.itemIds.map((id) => ({ id })));
    await until(async () => (await store.getRequest(a.id))?.status === 'Success', 5_000, 'the first request');
    // Both runs are still in their tail: the next request's insert finds both slots free and leases.
    const b = await submit(store, 2);
    await worker.enqueue(b.itemIds.map((id) => ({ id })));
    await until(async () => (await store.getRequest(b.id))?.status === 'Success', 5_000, 'the second request, leased at its insert');
    assert.deepEqual(claims, []);
    assert.deepEqual([...a.itemIds, ...b.itemIds].map((id) => seen.get(id)), [1, 1, 1, 1]);
  } finally {
    release();
    await worker.close();
    await store.close();
  }
});

test('postgres queue: refuses a store that is not PostgreSQL', async () => {
  const { openSqliteStore } = await import('../../store/sqlite/store.ts');
  const s = await openSqliteStore(':memory:');
  assert.throws(() => new PostgresQueue(s as unknown as PostgresStore), /needs the PostgreSQL store/);
  await s.close();
});
