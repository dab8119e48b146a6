import { test } from 'node:test';
import { MemoryRateLimiter } from './rate-limit.ts';
import { burstThenAverage } from './conformance.ts';

test('token bucket: burst, then the average rate, with Retry-After', async () => {
  let now = 0;
  await burstThenAverage(new MemoryRateLimiter(() => now), (ms) => { now += ms; });
});
