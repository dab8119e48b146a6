import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Pacer, type PaceSlot } from './pacing.ts';
import { FakeClock } from './fake-clock.testkit.ts';

function setup(maxDelayMs = 60_000, targetConcurrency = 2) {
  const clock = new FakeClock();
  const pacer = new Pacer({ targetConcurrency, maxDelayMs, now: clock.now, sleep: clock.sleep });
  const starts: number[] = [];
  const go = (slots: PaceSlot[], signal?: AbortSignal) => pacer.wait(slots, signal).then(() => starts.push(clock.t));
  return { clock, pacer, starts, go };
}

test('never faster than the cap: ten requests at once start 100 ms apart', async () => {
  const { clock, starts, go } = setup();
  const slot = [{ key: 'h|p1', minDelayMs: 100 }];
  const all = Array.from({ length: 10 }, () => go(slot));
  await clock.advance(2000);
  await Promise.all(all);
  assert.deepEqual(starts, [0, 100, 200, 300, 400, 500, 600, 700, 800, 900]);
});

test('the slowest of several keys decides; keys are independent otherwise', async () => {
  const { clock, starts, go } = setup();
  await go([{ key: 'h', minDelayMs: 0 }, { key: 'h|p1', minDelayMs: 300 }]);
  const p = go([{ key: 'h', minDelayMs: 0 }, { key: 'h|p1', minDelayMs: 300 }]);
  const q = go([{ key: 'h', minDelayMs: 0 }, { key: 'h|p2', minDelayMs: 300 }]);
  await clock.advance(1000);
  await Promise.all([p, q]);
  assert.deepEqual(starts, [0, 0, 300]);
});

test('AutoThrottle: successes move the gap halfway to latency / target concurrency, floored at the cap', () => {
  const { pacer } = setup(60_000, 2);
  const slot = [{ key: 'k', minDelayMs: 50 }];
  pacer.record(slot, 400, 'ok'); // target 200: (50 + 200) / 2
  assert.equal(pacer.delayOf('k'), 125);
  pacer.record(slot, 400, 'ok');
  assert.equal(pacer.delayOf('k'), 162.5);
  for (let i = 0; i < 30; i++) pacer.record(slot, 400, 'ok');
  assert.ok(Math.abs(pacer.delayOf('k')! - 200) < 0.01, 'converges to latency / concurrency');
  for (let i = 0; i < 30; i++) pacer.record(slot, 10, 'ok');
  assert.equal(pacer.delayOf('k'), 50, 'a fast site never pushes the gap below the cap');
});

test('errors never shorten the gap; soft blocks double it, up to the maximum', () => {
  const { pacer } = setup(1000, 1);
  const slot = [{ key: 'k', minDelayMs: 100 }];
  pacer.record(slot, 5, 'error');
  assert.equal(pacer.delayOf('k'), 100, 'a fast error page does not speed us up');
  pacer.record(slot, 500, 'error');
  assert.equal(pacer.delayOf('k'), 300, 'a slow error slows us down');
  pacer.record(slot, 5, 'soft_block');
  assert.equal(pacer.delayOf('k'), 600);
  pacer.record(slot, 5, 'soft_block');
  assert.equal(pacer.delayOf('k'), 1000, 'capped at maxDelayMs');
});

test('a soft block on an uncapped key still backs off (from one latency)', () => {
  const { pacer } = setup();
  pacer.record([{ key: 'k', minDelayMs: 0 }], 80, 'soft_block');
  assert.equal(pacer.delayOf('k'), 80);
});

test('Retry-After pauses the key, including requests already waiting', async () => {
  const { clock, pacer, starts, go } = setup();
  const slot = [{ key: 'k', minDelayMs: 100 }];
  await go(slot); // t=0
  const waiting = go(slot); // reserved for t=100
  await clock.advance(50);
  pacer.record(slot, 20, 'rate_limited', 5000); // at t=50: paused until 5050
  await clock.advance(10_000);
  await waiting;
  assert.equal(starts[1], 5050, 'the waiter moved behind the pause');
  const later = go(slot);
  await clock.advance(10_000);
  await later;
  assert.ok(starts[2]! >= 5050 + 200, `then the doubled gap applies (got ${starts[2]})`);
});

test('a waiting request rejects when its signal aborts', async () => {
  const { clock, go } = setup();
  const slot = [{ key: 'k', minDelayMs: 1000 }];
  await go(slot);
  const ac = new AbortController();
  const p = go(slot, ac.signal);
  ac.abort(new Error('cancelled'));
  await assert.rejects(p, /cancelled/);
  assert.equal(clock.pending, 0);
});

test('readyAt tells the least busy key without reserving', async () => {
  const { pacer, go } = setup();
  const a = [{ key: 'a', minDelayMs: 100 }];
  await go(a);
  assert.equal(pacer.readyAt(a), 100);
  assert.equal(pacer.readyAt(a), 100, 'asking reserves nothing');
  assert.equal(pacer.readyAt([{ key: 'b', minDelayMs: 100 }]), 0);
});

test('a pause longer than the caller waits is handed back, reserving nothing', async () => {
  const { pacer } = setup();
  const slot = [{ key: 'k', minDelayMs: 100 }];
  pacer.record(slot, 20, 'rate_limited', 7_200_000);
  assert.equal(await pacer.wait(slot, undefined, 30_000), 7_200_000);
  assert.equal(await pacer.wait(slot, undefined, 30_000), 7_200_000, 'still paused, nothing reserved');
  assert.equal(await pacer.wait([{ key: 'other', minDelayMs: 100 }], undefined, 30_000), 0, 'other keys unaffected');
});
