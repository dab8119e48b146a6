/**
 * The cluster store conformance suite (./store.ts): every implementation answers the same cases.
 * `open` gives two clients of one store (two processes' views: separate connections to one
 * Redis prefix or one PostgreSQL schema) and a `close` that removes what the run made.
 *
 * @example clusterStoreConformance('redis', async () => ({ a, b, close }), { skip: !url && REDIS_SKIP });
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClusterStore } from './store.ts';

export interface ConformanceRig {
  a: ClusterStore;
  b: ClusterStore;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Slack for the time between two statements on a loaded box (ms). */
const SLACK = 250;

/**
 * A lease's first start `due` ms after an earlier lease's, read `firstInMs` from the second lease's
 * answer: the time between the two answers (at most `spanMs`, measured around both calls) is already
 * spent, so a loaded store is not a failure; a start later than due, or earlier than that time allows, is.
 */
function assertAfter(firstInMs: number, due: number, spanMs: number, what: string): void {
  assert.ok(firstInMs <= due + SLACK && firstInMs >= due - spanMs - SLACK, `next in ${firstInMs} (${what}: ${due} after the first lease, ${Math.round(spanMs)} ms spent between)`);
}

export function clusterStoreConformance(name: string, open: () => Promise<ConformanceRig>, o: { skip?: string | false } = {}): void {
  const run = (title: string, fn: (r: ConformanceRig) => Promise<void>) =>
    test(`cluster store ${name}: ${title}`, { skip: o.skip, timeout: 30_000 }, async () => {
      const r = await open();
      try {
        await fn(r);
      } finally {
        await r.close();
      }
    });

  run('a lease of a fraction of places (a start that opens a connection takes its gap and a part) ends where its time does', async ({ a, b }) => {
    const t0 = performance.now();
    await a.lease('h:443|frac', 1.5, 1000);
    const next = await b.lease('h:443|frac', 1, 1000);
    assertAfter(next.firstInMs, 1500, performance.now() - t0, '1.5 gaps after');
  });

  run('a fresh key starts now; the next lease starts where the last one ended, from either client', async ({ a, b }) => {
    const t0 = performance.now();
    const first = await a.lease('h:443|p1', 4, 1000);
    assert.equal(first.count, 4);
    assert.equal(first.gapMs, 1000);
    assert.ok(first.firstInMs >= 0 && first.firstInMs < SLACK, `first in ${first.firstInMs}`);
    assert.equal(first.pausedForMs, 0);
    const second = await b.lease('h:443|p1', 2, 1000);
    assertAfter(second.firstInMs, 4000, performance.now() - t0, "not after the first's four");
    const other = await b.lease('h:443|p2', 1, 1000);
    assert.ok(other.firstInMs < SLACK, 'another key is not held by the first');
  });

  run('leases taken at once by two clients never share a start', async ({ a, b }) => {
    const got = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).lease('race:443', 3, 500)));
    const firsts = got.map((l) => l.firstInMs).sort((x, y) => x - y);
    for (let i = 1; i < firsts.length; i++) assert.ok(firsts[i]! - firsts[i - 1]! > 1500 - SLACK, `leases ${firsts.join(', ')} overlap`);
    assert.ok(firsts.at(-1)! > 9 * 1500 - SLACK);
  });

  run('a pause seen by one client holds the key for the other; other keys go on', async ({ a, b }) => {
    await a.lease('paused:443', 1, 10);
    const t0 = performance.now();
    await a.pause('paused:443', 3000);
    const l = await b.lease('paused:443', 2, 10);
    // What a loaded box spends between the pause and the lease is already off the pause.
    const spent = () => performance.now() - t0;
    assert.ok(l.firstInMs > 3000 - spent() - SLACK, `starts in ${l.firstInMs} inside the pause (${Math.round(spent())} ms spent)`);
    assert.ok(l.pausedForMs > 3000 - spent() - SLACK && l.pausedForMs <= 3000, `paused for ${l.pausedForMs} (${Math.round(spent())} ms spent)`);
    // A shorter pause later does not shorten it.
    await b.pause('paused:443', 10);
    const again = await a.lease('paused:443', 1, 10);
    assert.ok(again.firstInMs > 3000 - spent() - SLACK, `again in ${again.firstInMs} (${Math.round(spent())} ms spent)`);
    assert.equal((await b.lease('free:443', 1, 10)).pausedForMs, 0);
  });

  run('shared states: the other client reads them from the feed, each once after its cursor, until they expire', async ({ a, b }) => {
    const start = await b.changes(undefined);
    assert.deepEqual(start.entries, []);
    await a.put('proxy', 'http://10.0.0.2:3128', 'benched', 5000);
    await a.put('tier', 'maps.example:443', '1', 1500);
    const all = await b.changes(undefined);
    const proxy = all.entries.find((e) => e.ns === 'proxy');
    assert.equal(proxy?.key, 'http://10.0.0.2:3128');
    assert.equal(proxy?.value, 'benched');
    assert.ok(proxy!.expiresInMs > 5000 - 4 * SLACK && proxy!.expiresInMs <= 5000, `expires in ${proxy!.expiresInMs}`);
    const since = await b.changes(start.cursor);
    assert.deepEqual(since.entries.map((e) => `${e.ns}/${e.key}`).sort(), ['proxy/http://10.0.0.2:3128', 'tier/maps.example:443']);
    await a.put('proxy', 'http://10.0.0.2:3128', 'benched again', 5000);
    const next = await b.changes(since.cursor);
    assert.ok(next.entries.some((e) => e.value === 'benched again'), 'an update comes through the feed');
    assert.equal(next.entries.filter((e) => e.ns === 'proxy').at(-1)?.value, 'benched again', 'the latest value last');
    await sleep(1600);
    const later = await b.changes(undefined);
    assert.ok(!later.entries.some((e) => e.ns === 'tier'), 'an expired state is gone');
  });

  run('members: each heartbeat counts the processes alive; one that stops beating drops out after its time', async ({ a, b }) => {
    assert.equal(await a.heartbeat('w1', 10_000), 1);
    assert.equal(await b.heartbeat('w2', 200), 2);
    assert.equal(await a.heartbeat('w1', 10_000), 2);
    await sleep(400);
    assert.equal(await a.heartbeat('w1', 10_000), 1, 'w2 missed its beat');
    await b.heartbeat('w3', 10_000);
    await b.leave('w3');
    assert.equal(await a.heartbeat('w1', 10_000), 1, 'w3 left');
  });
}
