import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { completer, queueConformance, submit, until } from '../conformance.ts';
import { RedisQueue, jobIdFor } from './redis.ts';
import { REDIS_SKIP, deleteKeys, privateRedisUnavailable, redisTestUrl, startPrivateRedis, uniquePrefix } from './redis-testing.ts';
import { openSqliteStore } from '../../store/sqlite/store.ts';
import { PG_SKIP, openScratchPostgresStore, pgTestUrl } from '../../store/postgres/testing.ts';
import type { Store } from '../../store/contract.ts';

const url = redisTestUrl();
const pgUrl = pgTestUrl();

const fixture = (openStore: () => Promise<Store>) => async () => {
  const store = await openStore();
  const prefix = uniquePrefix('q');
  const o = { url: url!, prefix, sweepMs: 300 };
  return {
    store, queue: new RedisQueue(store, o), queue2: new RedisQueue(store, o),
    cleanup: async () => { await deleteKeys(url!, prefix); },
  };
};

queueConformance('redis + sqlite', fixture(() => openSqliteStore(':memory:')), { skip: url ? false : REDIS_SKIP });
queueConformance('redis + postgres', fixture(() => openScratchPostgresStore(pgUrl!)), { skip: !url ? REDIS_SKIP : !pgUrl ? PG_SKIP : false });

test('redis queue: job ids carry no ":" and differ per attempt', () => {
  assert.equal(jobIdFor('0b6c:12', 0), '0b6c%3A12#0');
  assert.equal(jobIdFor('a%3A:1', 2), 'a%253A%3A1#2');
  assert.notEqual(jobIdFor('a:1', 1), jobIdFor('a:1', 2));
  assert.equal(jobIdFor('a:1', -1), 'a%3A1#s');
});

test('redis queue: closed right after it is made (a short CLI process), nothing is thrown later', { skip: url ? false : REDIS_SKIP, timeout: 60_000 }, async () => {
  const store = await openSqliteStore(':memory:');
  const uncaught: unknown[] = [];
  const note = (e: unknown) => uncaught.push(e);
  process.on('uncaughtException', note);
  try {
    // Closed after 0-9 ms: one of them meets the connection check in flight.
    for (let i = 0; i < 60; i++) {
      const q = new RedisQueue(store, { url: url!, prefix: uniquePrefix('close') });
      await new Promise((r) => setTimeout(r, i % 10));
      await q.close();
    }
    // What a quit during the connection check leaves behind is emitted a turn or two later.
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(uncaught.map(String), []);
  } finally {
    process.off('uncaughtException', note);
    await store.close();
  }
});

test('redis queue: the worker resumes after its Redis connections are killed', { skip: url ? false : REDIS_SKIP, timeout: 60_000 }, async () => {
  const store = await openSqliteStore(':memory:');
  const prefix = uniquePrefix('kill');
  const q = new RedisQueue(store, { url: url!, prefix, sweepMs: 60_000 });
  const admin = new Redis(url!);
  try {
    const seen = new Map<string, number>();
    q.start(completer(store, 'w', seen), { concurrency: 4, owner: 'w', leaseMs: 30_000 });
    const a = await submit(store, 5);
    await q.enqueue(a.itemIds.map((id) => ({ id })));
    await until(async () => (await store.getRequest(a.id))?.status === 'Success', 10_000, 'first batch');
    const list = (await admin.client('LIST')) as string;
    const ids = list.split('\n').filter((l) => new RegExp(`name=${prefix}:`).test(l)).map((l) => /id=(\d+)/.exec(l)![1]);
    assert.ok(ids.length >= 2, `found ${ids.length} connections of this queue`);
    for (const id of ids) await admin.client('KILL', 'ID', id);
    // The sweeper is far off (60 s): only a reconnected worker can run the second batch.
    const b = await submit(store, 5);
    await q.enqueue(b.itemIds.map((id) => ({ id })));
    await until(async () => (await store.getRequest(b.id))?.status === 'Success', 20_000, 'second batch after CLIENT KILL');
    assert.equal(seen.size, 10);
  } finally {
    await q.close();
    admin.disconnect();
    await deleteKeys(url!, prefix);
    await store.close();
  }
});

// Runs a throw-away redis-server of its own, but only where Redis tests are enabled at all.
const noRedisServer = !url ? REDIS_SKIP : privateRedisUnavailable();
test('redis queue: after Redis restarts empty, the sweeper re-announces what the store still has', { skip: noRedisServer ? (url ? `no private Redis: ${noRedisServer}` : noRedisServer) : false, timeout: 60_000 }, async () => {
  const redis = await startPrivateRedis();
  const store = await openSqliteStore(':memory:');
  const q = new RedisQueue(store, { url: redis.url, sweepMs: 300 });
  try {
    const seen = new Map<string, number>();
    let gate = true;
    q.start(async (item) => {
      while (gate) await new Promise((r) => setTimeout(r, 10)); // hold the first items until Redis is gone
      await completer(store, 'w', seen)(item);
    }, { concurrency: 2, owner: 'w', leaseMs: 1_000 });
    const r = await submit(store, 8);
    await q.enqueue(r.itemIds.map((id) => ({ id })));
    await until(async () => (await store.itemCounts()).leased === 2, 10_000, 'two items running');
    await redis.kill(); // the 6 waiting jobs are gone with it
    gate = false;
    await q.enqueue([{ id: 'does-not-exist:0' }]); // an announcement during the outage fails softly
    await redis.start();
    await until(async () => (await store.getRequest(r.id))?.status === 'Success', 30_000, 'every item after the restart');
    assert.equal(seen.size, 8);
  } finally {
    await q.close();
    await store.close();
    await redis.destroy();
  }
});
