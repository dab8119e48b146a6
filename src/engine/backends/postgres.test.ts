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

test('postgres queue: refuses a store that is not PostgreSQL', async () => {
  const { openSqliteStore } = await import('../../store/sqlite/store.ts');
  const s = await openSqliteStore(':memory:');
  assert.throws(() => new PostgresQueue(s as unknown as PostgresStore), /needs the PostgreSQL store/);
  await s.close();
});
