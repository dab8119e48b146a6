/**
 * The work-queue conformance suite: every backend runs it (embedded.test.ts, redis and postgres
 * backends' tests). Modelled on BullMQ's own adapter suites: delivery exactly once per item across
 * consumers, delays, graceful stop, and take-over of a dead worker's items.
 *
 * @example
 *   queueConformance('embedded', async () => { const store = await openSqliteStore(':memory:');
 *     return { store, queue: new EmbeddedQueue(store, 50), queue2: new EmbeddedQueue(store, 50) }; });
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Store, WorkItem } from '../store/contract.ts';
import type { WorkQueue } from './queue.ts';
import { ITEMS_AT_ONCE } from '../store/requests/contract.ts';

export interface QueueFixture {
  store: Store;
  /** Two queue instances over the same backend, standing for two worker processes. */
  queue: WorkQueue;
  queue2: WorkQueue;
  cleanup?(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `cond` until it holds; throws after `ms`. @example await until(() => seen.size === 3, 10_000, 'three items') */
export async function until(cond: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** A new account and a request of `n` queries in the store; returns the request id and its item ids. */
export async function submit(store: Store, n: number): Promise<{ id: string; itemIds: string[] }> {
  const accountId = randomUUID();
  await store.createAccount({ id: accountId, name: 'q', balanceMicros: 1e15, creditLimitMicros: 0, currency: 'usd', pastDue: false,
    webhookSecret: 's', webhookUrl: null, ratePerSec: 1e6, burst: 1e6 });
  const id = randomUUID();
  await store.createRequest({ id, accountId, endpoint: '/test', params: {}, queries: Array.from({ length: n }, (_, i) => `q${i}`),
    webhook: null, product: 'p', unit: 'u', unitPriceMicros: 0, emptyCostsOne: false, dropDuplicates: false, taskId: null, maxAttempts: 3, createdAt: Date.now() });
  return { id, itemIds: Array.from({ length: n }, (_, i) => `${id}:${i}`) };
}

/** A queue's run function that counts each item in `seen` and completes it empty as `owner`. */
export const completer = (store: Store, owner: string, seen: Map<string, number>, delayMs = 0) => async (item: WorkItem) => {
  seen.set(item.id, (seen.get(item.id) ?? 0) + 1);
  if (delayMs) await sleep(delayMs);
  await store.completeItem({ itemId: item.id, owner, recordsJson: '[]', count: 0, now: Date.now() });
};

export function queueConformance(name: string, open: () => Promise<QueueFixture>, opts: { skip?: string | false } = {}): void {
  const t = (title: string, fn: (f: QueueFixture) => Promise<void>) =>
    test(`queue conformance [${name}]: ${title}`, { skip: opts.skip || false, timeout: 60_000 }, async () => {
      const f = await open();
      try { await fn(f); } finally {
        await f.queue.close();
        await f.queue2.close();
        await f.cleanup?.();
        await f.store.close();
      }
    });

  t('every enqueued item runs exactly once across two consumers', async ({ store, queue, queue2 }) => {
    const seen = new Map<string, number>();
    queue.start(completer(store, 'w1', seen, 2), { concurrency: 4, owner: 'w1', leaseMs: 30_000 });
    queue2.start(completer(store, 'w2', seen, 2), { concurrency: 4, owner: 'w2', leaseMs: 30_000 });
    const { id, itemIds } = await submit(store, 60);
    await queue.enqueue(itemIds.map((i) => ({ id: i })));
    await until(async () => (await store.getRequest(id))?.status === 'Success', 30_000, 'request to finish');
    assert.equal(seen.size, 60);
    assert.ok([...seen.values()].every((n) => n === 1), 'no item ran twice');
  });

  t('a request past ITEMS_AT_ONCE runs every item exactly once, its waiting chunks written and announced by two processes', async ({ store, queue, queue2 }) => {
    const seen = new Map<string, number>();
    queue.start(completer(store, 'w1', seen), { concurrency: 8, owner: 'w1', leaseMs: 30_000 });
    queue2.start(completer(store, 'w2', seen), { concurrency: 8, owner: 'w2', leaseMs: 30_000 });
    // Two waiting chunks (the store conformance has more writers on more): a queue backend's cost
    // is per item, and Redis over PostgreSQL runs some 50 a second on a loaded box.
    const n = ITEMS_AT_ONCE + 50;
    const { id, itemIds } = await submit(store, n);
    // As the item writers do (src/app/item-writer.ts): each waiting chunk announced once written,
    // whichever process writes it.
    const writer = async (q: WorkQueue) => {
      for (let w; (w = await store.writeWaitingItems());) await q.enqueue(itemIds.slice(w.from, w.to).map((i) => ({ id: i })));
    };
    await Promise.all([writer(queue), writer(queue2)]);
    await until(async () => (await store.getRequest(id))?.status !== 'Pending', 60_000, 'request to finish');
    assert.equal((await store.getRequest(id))?.queriesDone, n);
    assert.equal(seen.size, n);
    assert.ok([...seen.values()].every((k) => k === 1), 'no item ran twice');
  });

  t('a delayed item does not run before its delay', async ({ store, queue }) => {
    const seen = new Map<string, number>();
    const at: number[] = [];
    const { id, itemIds } = await submit(store, 1);
    // The store's run_after is the authority for retries: set it as a failed attempt would. The queue
    // starts only after this setup claim, or a polling backend could take the item first.
    const [claimed] = await store.claimItems('setup', 1, 30_000, Date.now(), itemIds);
    const t0 = Date.now();
    await store.failItem(claimed.id, 'setup', 'network: test', t0 + 400, t0);
    queue.start(async (item) => { at.push(Date.now()); await completer(store, 'w1', seen)(item); }, { concurrency: 2, owner: 'w1', leaseMs: 30_000 });
    await queue.enqueue([{ id: claimed.id, delayMs: 400 }]);
    await until(() => seen.size === 1, 10_000, 'the delayed item');
    assert.ok(at[0] - t0 >= 380, `ran after ${at[0] - t0} ms`);
    // Its completion is still in flight when it is first seen: let it end before the teardown drops
    // the scratch schema (a DROP racing the completion deadlocks on PostgreSQL).
    await until(async () => (await store.getRequest(id))?.status !== 'Pending', 10_000, 'the delayed item to complete');
  });

  t('stop waits for running items and takes no more', async ({ store, queue }) => {
    const seen = new Map<string, number>();
    let finished = 0;
    queue.start(async (item) => { await completer(store, 'w1', seen, 200)(item); finished++; }, { concurrency: 2, owner: 'w1', leaseMs: 30_000 });
    const { itemIds } = await submit(store, 6);
    await queue.enqueue(itemIds.map((i) => ({ id: i })));
    await until(() => seen.size >= 1, 10_000, 'work to start');
    await queue.stop();
    const atStop = finished;
    assert.equal(atStop, seen.size, 'every started item finished before stop returned');
    await sleep(300);
    assert.equal(seen.size, atStop, 'nothing started after stop');
    assert.ok(atStop < 6);
  });

  t("a dead worker's leased items are taken over after the lease", async ({ store, queue }) => {
    const { id, itemIds } = await submit(store, 3);
    await queue.enqueue(itemIds.map((i) => ({ id: i })));
    // A worker that leased everything and died: nothing completes, the lease runs out.
    const dead = await store.claimItems('dead', 3, 300, Date.now());
    assert.equal(dead.length, 3);
    const seen = new Map<string, number>();
    queue.start(completer(store, 'alive', seen), { concurrency: 3, owner: 'alive', leaseMs: 30_000 });
    await until(async () => (await store.getRequest(id))?.status === 'Success', 20_000, 'take-over');
    assert.equal(seen.size, 3);
  });

  t("one account's backlog does not hold another account's first item (fair claims)", async ({ store, queue }) => {
    const order: string[] = [];
    const seen = new Map<string, number>();
    const run = completer(store, 'w1', seen, 40);
    queue.start(async (item) => { order.push(item.requestId); await run(item); }, { concurrency: 4, owner: 'w1', leaseMs: 30_000 });
    const a = await submit(store, 200);
    await queue.enqueue(a.itemIds.map((i) => ({ id: i })));
    await until(() => order.length >= 8, 10_000, 'the backlog to run');
    const b = await submit(store, 1);
    const before = order.length;
    await queue.enqueue(b.itemIds.map((i) => ({ id: i })));
    await until(() => order.includes(b.id), 10_000, "the other account's item");
    // FIFO would run all 200 first. Fair: the next slot that frees (4 running; a claim may be in flight).
    const after = order.indexOf(b.id) - before;
    assert.ok(after <= 8, `${after} of the backlog's items ran before the other account's first`);
    await store.cancelRequest(a.id, Date.now());
    await until(async () => (await store.getRequest(b.id))?.status === 'Success', 10_000, 'the other request to finish');
  });

  t('depth and ping answer', async ({ store, queue }) => {
    await queue.ping();
    const { itemIds } = await submit(store, 2);
    await queue.enqueue(itemIds.map((i) => ({ id: i })));
    assert.ok((await queue.depth()) >= 0);
  });
}
