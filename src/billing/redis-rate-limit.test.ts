import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { RedisRateLimiter } from './redis-rate-limit.ts';
import { burstThenAverage } from './conformance.ts';
import { REDIS_SKIP, deleteKeys, privateRedisUnavailable, redisTestUrl, startPrivateRedis, uniquePrefix } from '../engine/backends/redis-testing.ts';

const url = redisTestUrl();
const skip = url ? false : REDIS_SKIP;

async function withLimiters(n: number, now: (() => number) | undefined, fn: (rls: RedisRateLimiter[], prefix: string) => Promise<void>) {
  const prefix = uniquePrefix('rl');
  const rls = Array.from({ length: n }, () => new RedisRateLimiter({ url: url!, prefix, now, failOpen: false }));
  try { await fn(rls, prefix); } finally {
    await Promise.all(rls.map((r) => r.close()));
    await deleteKeys(url!, prefix);
  }
}

test('redis token bucket: burst, then the average rate, with Retry-After', { skip }, async () => {
  let now = 1_000_000;
  await withLimiters(1, () => now, async ([rl]) => {
    await burstThenAverage(rl, (ms) => { now += ms; });
    // A slow rate: one token every 4 s.
    for (let i = 0; i < 2; i++) assert.equal((await rl.take('slow', 0.25, 2)).ok, true);
    assert.deepEqual(await rl.take('slow', 0.25, 2), { ok: false, retryAfterSec: 4 });
  });
});

test('redis token bucket: two API instances share one bucket', { skip }, async () => {
  let now = 5_000_000;
  await withLimiters(2, () => now, async ([x, y]) => {
    let ok = 0;
    for (let i = 0; i < 20; i++) ok += (await (i % 2 ? x : y).take('acct', 10, 10)).ok ? 1 : 0;
    assert.equal(ok, 10, 'ten tokens in all, not ten each');
    now += 500;
    const both = await Promise.all([x.take('acct', 10, 10), y.take('acct', 10, 10), x.take('acct', 10, 10), y.take('acct', 10, 10),
      x.take('acct', 10, 10), y.take('acct', 10, 10), x.take('acct', 10, 10)]);
    assert.equal(both.filter((d) => d.ok).length, 5, 'half a second at 10/s refills five, taken atomically');
  });
});

test('redis token bucket: the server clock refills, and the key expires', { skip }, async () => {
  await withLimiters(1, undefined, async ([rl], prefix) => {
    for (let i = 0; i < 5; i++) assert.equal((await rl.take('k', 2, 5)).ok, true);
    assert.equal((await rl.take('k', 2, 5)).ok, false);
    await new Promise((r) => setTimeout(r, 600)); // one token back at 2/s
    assert.equal((await rl.take('k', 2, 5)).ok, true);
    const r = new Redis(url!);
    try {
      const ttl = await r.pttl(`${prefix}:rl:k`);
      // Almost empty at 2/s: full again in about 2.5 s, plus a second of slack.
      assert.ok(ttl > 2_000 && ttl <= 3_500, `ttl ${ttl} ms: gone once the bucket is full again`);
    } finally { r.disconnect(); }
  });
});

test('redis token bucket: unreachable Redis falls back to a local limit, not an open door, or throws when asked to', async () => {
  const open = new RedisRateLimiter({ url: 'redis://127.0.0.1:1', timeoutMs: 500 });
  const closed = new RedisRateLimiter({ url: 'redis://127.0.0.1:1', timeoutMs: 500, failOpen: false });
  try {
    const t0 = Date.now();
    assert.deepEqual(await open.take('a', 20, 40), { ok: true, retryAfterSec: 0 });
    assert.ok(Date.now() - t0 < 2_000);
    // The account's burst still holds, counted in this process.
    const decisions = [];
    for (let i = 0; i < 10; i++) decisions.push((await open.take('b', 0.01, 3)).ok);
    assert.deepEqual(decisions, [true, true, true, false, false, false, false, false, false, false]);
    await assert.rejects(closed.take('a', 20, 40));
  } finally {
    await open.close();
    await closed.close();
  }
});

test('redis token bucket: nonsense limits are refused', async () => {
  const rl = new RedisRateLimiter({ url: 'redis://127.0.0.1:1' });
  try {
    await assert.rejects(rl.take('a', 0, 40), /ratePerSec > 0/);
    await assert.rejects(rl.take('a', 20, 0), /burst >= 1/);
  } finally { await rl.close(); }
});

// Runs a throw-away redis-server of its own, but only where Redis tests are enabled at all.
const noRedisServer = !url ? REDIS_SKIP : privateRedisUnavailable();
test('redis token bucket: during an outage decisions are immediate, and limiting resumes after it', { skip: noRedisServer ? (url ? `no private Redis: ${noRedisServer}` : noRedisServer) : false, timeout: 30_000 }, async () => {
  const redis = await startPrivateRedis();
  const rl = new RedisRateLimiter({ url: redis.url });
  try {
    assert.equal((await rl.take('a', 1, 1)).ok, true);
    assert.equal((await rl.take('a', 1, 1)).ok, false);
    await redis.kill();
    await new Promise((r) => setTimeout(r, 100));
    const t0 = Date.now();
    assert.equal((await rl.take('c', 1, 1)).ok, true, 'the local bucket decides');
    assert.equal((await rl.take('c', 1, 1)).ok, false, 'and it limits');
    assert.ok(Date.now() - t0 < 200, `decided in ${Date.now() - t0} ms`);
    await redis.start();
    // Once Redis decides again, the bucket is shared: a token taken by one process is gone for the
    // other (the local buckets never share). Local answers resolve at once, so the loop gives
    // timers (ioredis's reconnect) a turn.
    const other = new RedisRateLimiter({ url: redis.url });
    try {
      const end = Date.now() + 10_000;
      for (let i = 0; ; i++) {
        const k = `shared${i}`;
        if ((await rl.take(k, 1, 1)).ok && !(await other.take(k, 1, 1)).ok) break;
        if (Date.now() > end) assert.fail('limiting through Redis did not resume');
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally { await other.close(); }
  } finally {
    await rl.close();
    await redis.destroy();
  }
});
