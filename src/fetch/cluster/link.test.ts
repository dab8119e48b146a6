// ClusterLink.take: a waiter that gives up before its lease leaves the queue, so no start is
// reserved for it (a reserved start nobody sends is a gap in the site's traffic every process waits through).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ClusterLink } from './link.ts';
import { MemoryClusterStore, type ClusterStore } from './store.ts';

/** The in-process store's rules, seen by the link as a shared store (so starts come from leases). */
function sharedMemory(): { store: ClusterStore; leases: () => number } {
  const mem = new MemoryClusterStore();
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
    const atA = await a;
    await b;
    ac.abort(new Error('item gave up'));
    await assert.rejects(c, /item gave up/);
    const atD = await d;
    // A at t, B at t+2 s, D at t+4 s; with C's start reserved, D would be at t+6 s.
    assert.ok(atD - atA < 5000, `D starts at +${Math.round(atD - atA)} ms: no start was reserved for the aborted waiter`);
    assert.equal(leases(), 3, 'three leases: A, B, D');
    await assert.rejects(link.take('k', 0, gap, AbortSignal.abort(new Error('already'))), /already/);
    assert.equal(leases(), 3, 'an already aborted waiter asks for nothing');
  } finally {
    await link.close();
  }
});
