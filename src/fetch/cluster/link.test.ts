// ClusterLink.take: a waiter that gives up before its lease leaves the queue, so no start is
// reserved for it (a reserved start nobody sends is a gap in the site's traffic every process waits through).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ClusterLink } from './link.ts';
import { MemoryClusterStore, type ClusterStore } from './store.ts';

/** The in-process store's rules, seen by the link as a shared store (so starts come from leases). */
function sharedMemory(now?: () => number): { store: ClusterStore; leases: () => number } {
  const mem = new MemoryClusterStore(now);
  let leases = 0;
  const store = new Proxy(mem, {
    get(t, p) {
      if (p === 'kind') return 'redis';
      if (p === 'lease') return (...a: Parameters<ClusterStore['lease']>) => { leases++; return t.lease(...a); };
      const v = Reflect.get(t, p);
      return typeof v === 'function' ? v.bind(t) : v;
    },
  }) as ClusterStore;
  return { store, leases: () => leases };
}

test('a waiter aborted while queued for a lease takes no start: the one behind it gets the start it would have had', async () => {
  const { store, leases } = sharedMemory();
  const link = new ClusterLink(store, { pollMs: 60_000, heartbeatMs: 60_000 });
  await link.start();
  try {
    // A 2 s gap: one start a lease, and the next lease is asked for once the last has begun.
    const gap = 2000;
    const ac = new AbortController();
    const a = link.take('k', 0, gap);
    const b = link.take('k', 0, gap);
    const c = link.take('k', 0, gap, ac.signal);
    const d = link.take('k', 0, gap);
    const { at: atA } = await a;
    await b;
    ac.abort(new Error('item gave up'));
    await assert.rejects(c, /item gave up/);
    const { at: atD } = await d;
    // A at t, B at t+2 s, D at t+4 s; with C's start reserved, D would be at t+6 s.
    assert.ok(atD - atA < 5000, `D starts at +${Math.round(atD - atA)} ms: no start was reserved for the aborted waiter`);
    assert.equal(leases(), 3, 'three leases: A, B, D');
    await assert.rejects(link.take('k', 0, gap, AbortSignal.abort(new Error('already'))), /already/);
    assert.equal(leases(), 3, 'an already aborted waiter asks for nothing');
  } finally {
    await link.close();
  }
});

test('a lease answered later than a gap comes with starts already past their place; a timely one does not', async () => {
  const mem = new MemoryClusterStore();
  let delayMs = 0;
  const store = new Proxy(mem, {
    get(t, p) {
      if (p === 'kind') return 'redis';
      // The store reserves at once; its answer reaches a loaded process `delayMs` later.
      if (p === 'lease') return async (...a: Parameters<ClusterStore['lease']>) => { const l = await t.lease(...a); await new Promise((r) => setTimeout(r, delayMs)); return l; };
      const v = Reflect.get(t, p);
      return typeof v === 'function' ? v.bind(t) : v;
    },
  }) as ClusterStore;
  const link = new ClusterLink(store, { pollMs: 60_000, heartbeatMs: 60_000 });
  await link.start();
  try {
    const gap = 100;
    const timely = await link.take('k', 0, gap);
    assert.ok(timely.until >= timely.at, 'a timely start can be sent');
    delayMs = 400; // four gaps: the other processes' starts are in the places by now
    const asked = performance.now();
    const late = await link.take('k', 0, gap);
    assert.ok(late.at >= asked + delayMs, 'never early');
    assert.ok(late.until < late.at, `its place (until +${Math.round(late.until - asked)} ms) ended before it could start (+${Math.round(late.at - asked)} ms)`);
    assert.ok(late.until <= asked + 200 + gap + 5, 'its place ends a gap after where the store put it');
    assert.equal(link.stats.lateLeases, 1);
    assert.equal(link.degraded, false, 'a slow answer is not an outage');
  } finally {
    await link.close();
  }
});

test('back from an outage, the starts a process took alone are held in the store: no lease runs beside them', async () => {
  const mem = new MemoryClusterStore();
  let down = false;
  const store = new Proxy(mem, {
    get(t, p) {
      if (p === 'kind') return 'redis';
      const v = Reflect.get(t, p);
      if (typeof v !== 'function') return v;
      return (...a: unknown[]) => (down ? Promise.reject(new Error('connection refused')) : (v as (...x: unknown[]) => Promise<unknown>).apply(t, a));
    },
  }) as ClusterStore;
  const a = new ClusterLink(store, { id: 'a', pollMs: 60_000, heartbeatMs: 50 });
  const b = new ClusterLink(store, { id: 'b', pollMs: 60_000, heartbeatMs: 50 });
  await a.start();
  await b.start();
  try {
    const gap = 100;
    await new Promise((r) => setTimeout(r, 60)); // both count two members
    down = true;
    await assert.rejects(store.heartbeat('x', 1), /refused/);
    await new Promise((r) => setTimeout(r, 120)); // a's heartbeat failed: it paces alone
    assert.ok(a.degraded);
    // Ten waiters on A alone, at 1/2 of the rate: starts reserved a second or two ahead.
    const alone = await Promise.all(Array.from({ length: 10 }, () => a.take('k', 0, gap)));
    const lastAlone = Math.max(...alone.map((s) => s.at));
    assert.ok(lastAlone > performance.now() + 1000, 'the starts taken alone reach into the future');
    down = false;
    for (let i = 0; i < 100 && (a.degraded || b.degraded); i++) await new Promise((r) => setTimeout(r, 20));
    assert.ok(!a.degraded && !b.degraded, 'both back on the store');
    const next = await b.take('k', 0, gap);
    assert.ok(next.at >= lastAlone, `B's first lease after the outage (+${Math.round(next.at - lastAlone)} ms) starts after A's last start alone`);
  } finally {
    await a.close();
    await b.close();
  }
});

test('a waiter with two places takes two gaps of its lease: the next waiter starts after both', async () => {
  // One still clock for the store and the link: the starts are then exact, whatever the box's load
  // (on the real clock, two leases answered a few ms apart put B 197 ms after A in CI at load 4).
  const still = () => 10_000;
  const { store } = sharedMemory(still);
  const link = new ClusterLink(store, { pollMs: 60_000, heartbeatMs: 60_000, now: still });
  await link.start();
  try {
    const gap = 100;
    const [a, b, c] = await Promise.all([link.take('k', 0, gap, undefined, 2), link.take('k', 0, gap), link.take('k', 0, gap)]);
    assert.equal(Math.round(b.at - a.at), 2 * gap, 'B after both of A\'s places');
    assert.equal(Math.round(c.at - b.at), gap);
    assert.ok(a.until - a.at <= gap + 1, 'A itself must go within its first place: the second is for its connection');
    const d = await link.take('k', 0, gap);
    assert.ok(d.at - c.at >= gap - 1, `the store counted four places (D +${Math.round(d.at - c.at)} ms after C)`);
  } finally {
    await link.close();
  }
});
