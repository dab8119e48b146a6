import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HostLimiter } from './limits.ts';
import { backoffDelay, parseRetryAfter, sleep } from './retry.ts';

test('semaphore: at most N per host, FIFO, hosts independent, state dropped when idle', async () => {
  const l = new HostLimiter({ concurrency: 2, rps: 0 });
  const order: number[] = [];
  const r1 = await l.acquire('a');
  const r2 = await l.acquire('a');
  const p3 = l.acquire('a').then((r) => (order.push(3), r));
  const p4 = l.acquire('a').then((r) => (order.push(4), r));
  const rb = await l.acquire('b');
  assert.equal(l.inFlight('a'), 2);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(order, []);
  r1();
  r1(); // a second call is ignored
  const r3 = await p3;
  assert.deepEqual(order, [3]);
  assert.equal(l.inFlight('a'), 2);
  r2();
  (await p4)();
  r3();
  rb();
  assert.equal(l.size, 0);
});

test('abort while waiting rejects and frees the queue slot', async () => {
  const l = new HostLimiter({ concurrency: 1, rps: 0 });
  const r1 = await l.acquire('h');
  const ac = new AbortController();
  const waiting = l.acquire('h', ac.signal);
  ac.abort(new Error('stop'));
  await assert.rejects(waiting, /stop/);
  r1();
  assert.equal(l.size, 0);
  await assert.rejects(l.acquire('h', ac.signal), /stop/);
});

test('token bucket: burst, then one per 1/rps', async () => {
  let now = 0;
  const l = new HostLimiter({ concurrency: 100, rps: 10, burst: 2, now: () => now });
  const got: number[] = [];
  for (let i = 0; i < 4; i++) void l.acquire('h').then((r) => (got.push(i), r()));
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(got, [0, 1], 'burst of 2 immediately');
  now = 100;
  await new Promise((r) => setTimeout(r, 120));
  assert.deepEqual(got, [0, 1, 2]);
  now = 200;
  await new Promise((r) => setTimeout(r, 120));
  assert.deepEqual(got, [0, 1, 2, 3]);
});

test('backoff grows, is capped, keeps jitter within [d/2, d]', () => {
  assert.equal(backoffDelay(0, 500, 10_000, () => 0), 250);
  assert.equal(backoffDelay(0, 500, 10_000, () => 1), 500);
  assert.equal(backoffDelay(3, 500, 10_000, () => 1), 4000);
  assert.equal(backoffDelay(10, 500, 10_000, () => 1), 10_000);
  assert.equal(backoffDelay(10, 500, 10_000, () => 0), 5_000);
});

test('Retry-After: seconds, HTTP date, garbage', async () => {
  assert.equal(parseRetryAfter('120'), 120_000);
  assert.equal(parseRetryAfter(' 1.5 '), 1500);
  assert.equal(parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', Date.parse('Wed, 21 Oct 2015 07:27:00 GMT')), 60_000);
  assert.equal(parseRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT', Date.parse('Wed, 21 Oct 2015 08:00:00 GMT')), 0);
  assert.equal(parseRetryAfter('soon'), undefined);
  assert.equal(parseRetryAfter(undefined), undefined);
  const ac = new AbortController();
  setTimeout(() => ac.abort(new Error('cancelled')), 10);
  await assert.rejects(sleep(10_000, ac.signal), /cancelled/);
});
