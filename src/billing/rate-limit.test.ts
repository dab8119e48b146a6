import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryRateLimiter } from './rate-limit.ts';

test('token bucket: burst, then the average rate, with Retry-After', async () => {
  let now = 0;
  const rl = new MemoryRateLimiter(() => now);
  for (let i = 0; i < 40; i++) assert.equal((await rl.take('a', 20, 40)).ok, true, `burst ${i}`);
  const over = await rl.take('a', 20, 40);
  assert.equal(over.ok, false);
  assert.equal(over.retryAfterSec, 1);
  assert.equal((await rl.take('b', 20, 40)).ok, true, 'accounts have their own buckets');
  now += 100; // 2 tokens back
  assert.equal((await rl.take('a', 20, 40)).ok, true);
  assert.equal((await rl.take('a', 20, 40)).ok, true);
  assert.equal((await rl.take('a', 20, 40)).ok, false);
});
