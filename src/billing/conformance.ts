/**
 * The token-bucket scenario every rate limiter must pass (rate-limit.test.ts, redis-rate-limit.test.ts):
 * a burst of 40, then the average rate of 20/s, with Retry-After, one bucket per key.
 *
 * @example
 *   let now = 0;
 *   await burstThenAverage(new MemoryRateLimiter(() => now), (ms) => { now += ms; });
 */
import assert from 'node:assert/strict';
import type { RateLimiter } from './rate-limit.ts';

/** `advance(ms)` moves the limiter's injected clock forward. */
export async function burstThenAverage(rl: RateLimiter, advance: (ms: number) => void): Promise<void> {
  for (let i = 0; i < 40; i++) assert.equal((await rl.take('a', 20, 40)).ok, true, `burst ${i}`);
  const over = await rl.take('a', 20, 40);
  assert.equal(over.ok, false);
  assert.equal(over.retryAfterSec, 1);
  assert.equal((await rl.take('b', 20, 40)).ok, true, 'accounts have their own buckets');
  advance(100); // 2 tokens back
  assert.equal((await rl.take('a', 20, 40)).ok, true);
  assert.equal((await rl.take('a', 20, 40)).ok, true);
  assert.equal((await rl.take('a', 20, 40)).ok, false);
}
