import { test } from 'node:test';
import assert from 'node:assert/strict';
import { completer, queueConformance, submit, until } from '../conformance.ts';
import { EmbeddedQueue } from './embedded.ts';
import { openSqliteStore } from '../../store/sqlite/store.ts';

queueConformance('embedded', async () => {
  const store = await openSqliteStore(':memory:');
  return { store, queue: new EmbeddedQueue(store, 50), queue2: new EmbeddedQueue(store, 50) };
});

test('embedded queue: a run\'s end claims again only while the store may hold more (one claim a query, not two; issue 37)', async () => {
  const store = await openSqliteStore(':memory:');
  let claims = 0;
  const claimItems = store.claimItems.bind(store);
  store.claimItems = (...a: Parameters<typeof claimItems>) => { claims++; return claimItems(...a); };
  // No poll within the test: every claim is an announcement's or a run end's.
  const queue = new EmbeddedQueue(store, 60_000);
  try {
    const seen = new Map<string, number>();
    queue.start(completer(store, 'w1', seen), { concurrency: 4, owner: 'w1', leaseMs: 30_000 });
    await until(() => claims === 1, 5_000, 'the start\'s claim');
    // One query at a time, as synchronous callers send them: announced, claimed, run, ended.
    for (let i = 0; i < 10; i++) {
      const { id, itemIds } = await submit(store, 1);
      await queue.enqueue(itemIds.map((x) => ({ id: x })));
      await until(async () => (await store.getRequest(id))?.status === 'Success', 5_000, 'the query to end');
    }
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(claims, 1 + 10, 'one claim a query (a run\'s end after a short claim claims nothing)');
    // More items than slots: claims that fill every slot keep the run ends claiming until all ran.
    const { id, itemIds } = await submit(store, 30);
    await queue.enqueue(itemIds.map((x) => ({ id: x })));
    await until(async () => (await store.getRequest(id))?.status === 'Success', 10_000, 'a backlog beyond the slots to drain');
    assert.equal(seen.size, 40);
  } finally {
    await queue.close();
    await store.close();
  }
});

test('embedded queue: on a store whose inserts lease, a run that frees its slot (slotFree) lets the next item run while its tail finishes; bounded, and stop() waits for it (issue 37)', async () => {
  const store = await openSqliteStore(':memory:');
  // As a store whose inserts lease offers it (PostgreSQL); this one leases nothing at insert.
  store.leaseAtInsert = () => () => {};
  const queue = new EmbeddedQueue(store, 60_000);
  const started: string[] = [];
  // Each run completes its item, frees its slot, then waits on its tail (a business capture) until let go.
  const tails: (() => void)[] = [];
  let tailsEnded = 0;
  try {
    queue.start(async (item, slotFree) => {
      started.push(item.id);
      await store.completeItem({ itemId: item.id, owner: 'w1', recordsJson: '[]', count: 0, now: Date.now() });
      slotFree?.();
      await new Promise<void>((r) => tails.push(r));
      tailsEnded++;
    }, { concurrency: 1, owner: 'w1', leaseMs: 30_000 });
    const { itemIds } = await submit(store, 3);
    await queue.enqueue(itemIds.map((id) => ({ id })));
    // One slot: the first run frees it after its completion, so the second starts with the first's tail pending.
    await until(() => started.length === 2, 5_000, 'the second item to start in the freed slot');
    // At most `concurrency` (1) runs past their slot: the second keeps its slot, the third waits for it.
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(started.length, 2, 'no third run while one run is past its slot and the other holds the only slot');
    // The second run, which kept its slot, ends: the third takes the slot (the first still past its own).
    tails.splice(1, 1)[0]();
    await until(() => started.length === 3, 5_000, 'the third item once the second run ended');
    // stop() waits for runs past their slot too (their capture is written before the store closes).
    let stopped = false;
    const stopping = queue.stop().then(() => { stopped = true; });
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(stopped, false, 'stop() waits for the runs still in their tail');
    for (const f of tails.splice(0)) f();
    await until(() => tails.length > 0 || stopped, 5_000, 'the rest');
    for (const f of tails.splice(0)) f();
    await stopping;
    assert.equal(tailsEnded, 3);
  } finally {
    for (const f of tails.splice(0)) f();
    await queue.close();
    await store.close();
  }
});

test('embedded queue: on a store whose inserts do not lease (SQLite) a run is given no slotFree: its slot is freed at its end', async () => {
  const store = await openSqliteStore(':memory:');
  const queue = new EmbeddedQueue(store, 60_000);
  const given: boolean[] = [];
  try {
    queue.start(async (item, slotFree) => {
      given.push(slotFree !== undefined);
      await store.completeItem({ itemId: item.id, owner: 'w1', recordsJson: '[]', count: 0, now: Date.now() });
    }, { concurrency: 1, owner: 'w1', leaseMs: 30_000 });
    const { id, itemIds } = await submit(store, 1);
    await queue.enqueue(itemIds.map((x) => ({ id: x })));
    await until(async () => (await store.getRequest(id))?.status === 'Success', 5_000, 'the query to end');
    assert.deepEqual(given, [false]);
  } finally {
    await queue.close();
    await store.close();
  }
});
