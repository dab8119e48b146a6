import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KeyedLimiter } from './limiter.ts';
import { TtlCache } from './ttl-cache.ts';

test('KeyedLimiter holds at most N per key, FIFO, keys independent', async () => {
  const lim = new KeyedLimiter(2);
  const a1 = await lim.acquire('a');
  const a2 = await lim.acquire('a');
  const b1 = await lim.acquire('b');
  assert.equal(lim.running('a'), 2);
  assert.equal(lim.running('b'), 1);
  const order: number[] = [];
  const w3 = lim.acquire('a').then((r) => (order.push(3), r));
  const w4 = lim.acquire('a').then((r) => (order.push(4), r));
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(order, []);
  a1();
  a1(); // a second call is ignored
  const r3 = await w3;
  assert.deepEqual(order, [3]);
  assert.equal(lim.running('a'), 2);
  a2();
  const r4 = await w4;
  assert.deepEqual(order, [3, 4]);
  r3();
  r4();
  b1();
  assert.equal(lim.running('a'), 0);
  assert.equal(lim.running('b'), 0);
});

test('KeyedLimiter: an aborted waiter leaves the queue', async () => {
  const lim = new KeyedLimiter(1);
  const held = await lim.acquire('d');
  const ac = new AbortController();
  const waiting = lim.acquire('d', ac.signal);
  ac.abort(new Error('stop'));
  await assert.rejects(waiting, /stop/);
  held();
  assert.equal(lim.running('d'), 0);
  assert.throws(() => new KeyedLimiter(0), RangeError);
});

test('TtlCache expires entries and bounds its size', () => {
  let now = 1000;
  const c = new TtlCache<string>(100, 2, () => now);
  c.set('a', 'A');
  assert.equal(c.get('a'), 'A');
  now += 100;
  assert.equal(c.get('a'), undefined);
  c.set('a', 'A');
  c.set('b', 'B');
  c.set('c', 'C');
  assert.equal(c.size, 2);
  assert.equal(c.get('a'), undefined, 'oldest dropped');
  c.set('z', 'Z', 0);
  assert.equal(c.get('z'), undefined, 'ttl 0 stores nothing');
});
