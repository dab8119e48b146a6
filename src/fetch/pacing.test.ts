import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Pacer, type PaceSlot } from './pacing.ts';
import { FakeClock } from './fake-clock.testkit.ts';

function setup(maxDelayMs = 60_000, targetConcurrency = 2) {
  const clock = new FakeClock();
  const pacer = new Pacer({ targetConcurrency, maxDelayMs, now: clock.now, sleep: clock.sleep });
  const starts: number[] = [];
  // Each request is answered as soon as it starts (the in-flight window never holds anyone back).
  const go = (slots: PaceSlot[], signal?: AbortSignal) => pacer.wait(slots, signal).then((s) => {
    starts.push(clock.t);
    s.done();
  });
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
  const { pacer, clock } = setup(1000, 1);
  const slot = [{ key: 'k', minDelayMs: 100 }];
  pacer.record(slot, 5, 'error');
  assert.equal(pacer.delayOf('k'), 100, 'a fast error page does not speed us up');
  pacer.record(slot, 500, 'error');
  assert.equal(pacer.delayOf('k'), 300, 'a slow error slows us down');
  pacer.record(slot, 5, 'soft_block');
  assert.equal(pacer.delayOf('k'), 600);
  clock.t = 100; // a request sent after that back-off
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
  assert.equal((await pacer.wait(slot, undefined, 30_000)).paused, 7_200_000);
  assert.equal((await pacer.wait(slot, undefined, 30_000)).paused, 7_200_000, 'still paused, nothing reserved');
  assert.equal((await pacer.wait([{ key: 'other', minDelayMs: 100 }], undefined, 30_000)).paused, 0, 'other keys unaffected');
});

test('slow start: a capped key has one request in flight until the site answers, then one more per success', async () => {
  const { clock, pacer } = setup(60_000, 2); // at most 4 in flight
  const slot = [{ key: 'h|p1', minDelayMs: 10 }];
  const started: Array<{ done(): void }> = [];
  const all = Array.from({ length: 8 }, () => pacer.wait(slot).then((s) => started.push(s)));
  await clock.advance(1000);
  assert.equal(started.length, 1, 'nothing queues behind the first connection');
  started[0]!.done(); // answered, but not judged yet: the window is still one
  await clock.advance(1000);
  assert.equal(started.length, 2);
  pacer.record(slot, 5, 'ok');
  assert.equal(pacer.windowOf('h|p1'), 2);
  await clock.advance(1000);
  assert.equal(started.length, 3, 'two in flight after one success');
  for (let i = 0; i < 5; i++) pacer.record(slot, 5, 'ok');
  assert.equal(pacer.windowOf('h|p1'), 4, 'up to twice the target concurrency');
  await clock.advance(1000);
  assert.equal(started.length, 5, 'four in flight (the first was answered)');
  pacer.record(slot, 5, 'rate_limited');
  assert.equal(pacer.windowOf('h|p1'), 2, 'a 429 halves it');
  for (const s of started) s.done();
  await clock.advance(60_000);
  assert.equal(started.length, 7, 'two more, not four');
  for (const s of started) s.done();
  await clock.advance(60_000);
  await Promise.all(all);
});

test('an uncapped key never limits what is in flight', async () => {
  const { clock, pacer } = setup();
  const slot = [{ key: 'h', minDelayMs: 0 }];
  const started = await Promise.all(Array.from({ length: 20 }, () => pacer.wait(slot)));
  assert.equal(started.length, 20);
  assert.equal(clock.pending, 0);
});

test('readyAt counts starts held by leases and requests queued for the window', async () => {
  const { clock, pacer } = setup();
  const slot = [{ key: 'k', minDelayMs: 100 }];
  const unhold = pacer.hold(slot);
  assert.equal(pacer.readyAt(slot), 100, 'one start promised: the next is a gap later');
  const first = await pacer.wait(slot); // starts at 0: the next at 100
  unhold();
  unhold(); // a second call does nothing
  assert.equal(pacer.readyAt(slot), 100);
  const queued = pacer.wait(slot); // the window is full: queued
  await clock.advance(0);
  assert.equal(pacer.readyAt(slot), 200);
  const ac = new AbortController();
  const aborted = pacer.wait(slot, ac.signal);
  ac.abort(new Error('cancelled'));
  await assert.rejects(aborted, /cancelled/);
  assert.equal(pacer.readyAt(slot), 200, 'an aborted waiter leaves the queue');
  first.done();
  await clock.advance(1000);
  (await queued).done();
});

test('the 429s of one burst back off once; a 429 to a request sent after the back-off backs off again', () => {
  const { pacer, clock } = setup();
  const slot = [{ key: 'k', minDelayMs: 50 }];
  clock.t = 1000;
  pacer.record(slot, 30, 'rate_limited', 2000); // sent at 970
  assert.equal(pacer.delayOf('k'), 100);
  clock.t = 1010;
  for (let i = 0; i < 4; i++) pacer.record(slot, 40 + i, 'rate_limited', 2000); // all sent before 1000
  assert.equal(pacer.delayOf('k'), 100, 'the rest of the burst does not double the gap again');
  assert.equal(pacer.readyAt(slot), 3010, 'but each still pushes the pause');
  clock.t = 3200;
  pacer.record(slot, 30, 'rate_limited', 2000); // sent at 3170, after the back-off
  assert.equal(pacer.delayOf('k'), 200);
});

/** Eight waiters reserve with the window open, then the process is busy until 650 (the slots from
 *  100 to 600 pass unseen): when each one started. */
async function eightAfterBusySpell(clock: FakeClock, pacer: Pacer, slot: PaceSlot[]): Promise<number[]> {
  const starts: number[] = [];
  const all = Array.from({ length: 8 }, () => pacer.wait(slot).then((s) => {
    starts.push(clock.t);
    s.done();
  }));
  for (let i = 0; i < 8; i++) pacer.record(slot, 5, 'ok');
  await clock.advance(0);
  clock.t = 650;
  await clock.advance(10_000);
  await Promise.all(all);
  return starts;
}

test('slots missed while the process was busy do not start as one burst: three at most, then the gap', async () => {
  const { clock, pacer } = setup(60_000, 20);
  const slot = [{ key: 'k', minDelayMs: 100 }];
  const starts = await eightAfterBusySpell(clock, pacer, slot);
  assert.deepEqual(starts.slice(0, 4), [0, 650, 650, 650], 'the first overdue three go together');
  for (let i = 4; i < starts.length; i++) assert.ok(starts[i]! - starts[i - 1]! >= 100, `then a gap apart: ${starts.join(',')}`);
});

/** Shared starts as a cluster link hands them out: one after another, each `gap` apart, its place
 *  ending a gap after it. */
function sharedSlots(gap: number) {
  let next = 0;
  const given: Array<{ at: number; until: number }> = [];
  return {
    given,
    take: async (_key: string, earliest: number) => {
      const at = Math.max(next, earliest);
      next = at + gap;
      given.push({ at, until: at + gap });
      return { at, until: at + gap };
    },
  };
}

test('shared starts whose place passed while the process was busy are taken again, never sent in another holder\'s place', async () => {
  const clock = new FakeClock();
  const src = sharedSlots(100);
  const pacer = new Pacer({ targetConcurrency: 20, maxDelayMs: 60_000, now: clock.now, sleep: clock.sleep, slots: src });
  const slot = [{ key: 'k', minDelayMs: 100 }];
  // Another process's next start is at 800.
  const starts = await eightAfterBusySpell(clock, pacer, slot);
  // Each start lies in the place of a start it was given: with the late ones sent at 650, three
  // requests would reach the site at once beside the next holder's.
  for (const t of starts) assert.ok(src.given.some((g) => t >= g.at && t <= g.until), `start at ${t} is in a place it was given (${starts.join(',')})`);
  assert.deepEqual(starts.slice(0, 3), [0, 650, 700], 'the start at 600 is still in its place at 650; the next is the one at 700');
  assert.equal(pacer.expired, 5, 'the five starts past their place (100 to 500) were taken again');
});

test('a start with two places (a request that opens a connection first) moves the next start two gaps on', async () => {
  const { clock, pacer } = setup(60_000, 20);
  const slot = [{ key: 'k', minDelayMs: 100 }];
  for (let i = 0; i < 4; i++) pacer.record(slot, 5, 'ok');
  const starts: number[] = [];
  const go = (places: number) => pacer.wait(slot, undefined, Infinity, places).then((s) => {
    starts.push(clock.t);
    s.done();
  });
  const all = [go(2), go(1.5), go(1), go(1)];
  await clock.advance(1000);
  await Promise.all(all);
  assert.deepEqual(starts, [0, 200, 350, 450]);
  // Shared starts: the link is asked for two places.
  const asked: number[] = [];
  const shared = new Pacer({ targetConcurrency: 20, maxDelayMs: 60_000, now: clock.now, sleep: clock.sleep,
    slots: { take: async (_k, earliest, _gap, _signal, places = 1) => { asked.push(places); return { at: earliest, until: earliest + 100 }; } } });
  const s = shared.wait(slot, undefined, Infinity, 2);
  await clock.advance(0);
  (await s).done();
  assert.deepEqual(asked, [2]);
});
