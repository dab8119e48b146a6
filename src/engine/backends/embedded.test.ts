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
