/**
 * A worker killed after BullMQ handed it a job but before it claimed the item in the store leaves the
 * job "active" under a lock nobody renews, and the item queued in the store with the same attempt
 * count. The sweeper's re-announcement has the same job id, so BullMQ drops it while that job exists:
 * the item waits until BullMQ finds the job stalled. With BullMQ's defaults (30 s lock, 30 s stalled
 * check) that took up to a minute in the scale-out test; the queue now uses a 10 s lock and a 5 s
 * check (BULLMQ_LOCKS), so such an item runs again within about 15 s.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { BULLMQ_LOCKS, RedisQueue } from '../src/engine/backends/redis.ts';
import { deleteKeys, REDIS_SKIP, redisTestUrl, uniquePrefix } from '../src/engine/backends/redis-testing.ts';
import { openSqliteStore } from '../src/store/sqlite/store.ts';

const url = redisTestUrl();

test('a job taken by a worker that died before claiming its item runs again within ~15 s', { skip: !url && REDIS_SKIP, timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-stranded-'));
  const prefix = uniquePrefix('stranded');
  const store = await openSqliteStore(join(dir, 'trawl.db'));
  const q = new RedisQueue(store, { url: url!, prefix, sweepMs: 1_000 });
  const deadConn = new Redis(url!, { maxRetriesPerRequest: null });
  try {
    await store.createAccount({ id: 'a', name: 'a', balanceMicros: 10_000_000, creditLimitMicros: 0, currency: 'usd', pastDue: false, webhookSecret: 's', webhookUrl: null, ratePerSec: 10, burst: 10 });
    await store.createRequest({ id: 'r', accountId: 'a', endpoint: '/maps/search', params: {}, queries: ['q'], webhook: null, product: 'p', unit: 'place', unitPriceMicros: 0, emptyCostsOne: false, dropDuplicates: false, taskId: null, maxAttempts: 4, createdAt: Date.now() });
    await q.enqueue([{ id: 'r:0' }]);

    // The "dying" worker, with a trawl worker's lock settings: takes the job, never claims, vanishes.
    const dead = new Worker('items', null, { connection: deadConn, prefix, autorun: false, ...BULLMQ_LOCKS });
    const job = await dead.getNextJob('dead-token', { block: false });
    assert.equal(job?.data.id, 'r:0', 'the dying worker holds the job');
    // Gone without finishing the job: close(force) neither completes it nor gives it back.
    await dead.close(true);
    deadConn.disconnect();
    const probe = new Redis(url!);
    try {
      assert.deepEqual(await probe.lrange(`${prefix}:items:active`, 0, -1), [job!.id], 'the job stays active under the dead worker\'s lock');
    } finally { probe.disconnect(); }

    const t0 = Date.now();
    let ranAt = 0;
    let completed: Promise<unknown> = Promise.resolve();
    q.start(async (item) => {
      ranAt = Date.now();
      completed = store.completeItem({ itemId: item.id, owner: 'live', recordsJson: '[]', count: 0, now: Date.now() });
      await completed;
    }, { concurrency: 2, owner: 'live', leaseMs: 60_000 });
    for (let i = 0; i < 450 && !ranAt; i++) await new Promise((r) => setTimeout(r, 100));
    assert.ok(ranAt, 'the item ran again');
    const waited = ranAt - t0;
    const bound = BULLMQ_LOCKS.lockDuration + BULLMQ_LOCKS.stalledInterval + 2_000;
    assert.ok(waited < bound, `it ran again after ${waited} ms (bound ${bound} ms: the dead worker's lock, then one stalled check)`);
    await completed; // the poll above sees the start of the run; its completion may still be writing on a loaded machine
    assert.equal((await store.getRequest('r'))?.status, 'Success');
  } finally {
    await q.close();
    deadConn.disconnect();
    await store.close();
    await deleteKeys(url!, prefix);
    rmSync(dir, { recursive: true, force: true });
  }
});
