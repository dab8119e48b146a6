import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FIRST_BATCH, PURGE_BUDGET_MS, purgeExpired, purgeMonitorHistory, rollupUsage, ROLLUP_LINES_PER_REQUEST } from './janitor.ts';
import { settingsFromEnv } from '../config/settings.ts';
import type { Store } from '../store/contract.ts';

/** A store whose purge has `backlog` expired requests and records each call's limit. */
function fakeStore(backlog: number) {
  const calls: Array<number | undefined> = [];
  const store = {
    async purge(_r: number, _q: number, limit?: number) {
      calls.push(limit);
      const n = Math.min(backlog, limit ?? backlog);
      backlog -= n;
      return n;
    },
  } as unknown as Store;
  return { store, calls, left: () => backlog };
}

const settings = { retentionMs: 1_000, historyMs: 2_000 } as never;

test('the janitor purges a backlog in batches until one comes back short, with a turn of the event loop between', async () => {
  const f = fakeStore(1_250);
  let turns = 0;
  const ticker = setInterval(() => {}, 0);
  const counting = setImmediate(function again() { turns++; if (f.left()) setImmediate(again); });
  // A clock that never moves: every transaction is quick, so the batch doubles up to the setting.
  const total = await purgeExpired({ store: f.store, settings, now: () => 10_000 }, 500, () => 0);
  clearInterval(ticker);
  clearImmediate(counting);
  assert.equal(total, 1_250);
  assert.equal(FIRST_BATCH, 10);
  assert.deepEqual(f.calls, [10, 20, 40, 80, 160, 320, 500, 500], 'from 10, doubled up to 500; the last (120 left) ends the pass');
  assert.equal(f.left(), 0);
  assert.ok(turns >= 2, `other callbacks ran between batches (${turns})`);
});

test('nothing expired: one cheap call', async () => {
  const f = fakeStore(0);
  assert.equal(await purgeExpired({ store: f.store, settings, now: () => 10_000 }, 500), 0);
  assert.deepEqual(f.calls, [10]);
});

test('batch 0: one call without a limit (everything in one transaction)', async () => {
  const f = fakeStore(1_250);
  assert.equal(await purgeExpired({ store: f.store, settings, now: () => 10_000 }, 0), 1_250);
  assert.deepEqual(f.calls, [undefined]);
});

test('a slow purge transaction scales the next batch down to fit the budget; quick ones double it back up to the setting', async () => {
  assert.equal(PURGE_BUDGET_MS, 8);
  const f = fakeStore(10_000);
  // A clock where the store's purge takes 1 ms per request: 10 → 10 ms (over the 8 ms budget), so
  // 8 → 8 ms (within, not quick): the batch stays there.
  let ms = 0;
  const timed = { ...f.store, purge: async (r: number, q: number, limit?: number) => { ms += limit ?? 0; return f.store.purge(r, q, limit); } } as unknown as Store;
  await purgeExpired({ store: timed, settings, now: () => 10_000 }, 100, () => ms);
  assert.deepEqual(f.calls.slice(0, 4), [10, 8, 8, 8], 'scaled to the budget after the first');
  assert.equal(f.left(), 0);
  assert.ok(f.calls.slice(1).every((c) => c !== undefined && c <= 8), 'no transaction over the budget after the first');

  // One slow transaction (80 ms: a checkpoint), then quick ones: down to 1, then doubled back up to the setting.
  const g = fakeStore(10_000);
  let first = true;
  let t = 0;
  const once = { ...g.store, purge: async (r: number, q: number, limit?: number) => { t += first ? 80 : 1; first = false; return g.store.purge(r, q, limit); } } as unknown as Store;
  await purgeExpired({ store: once, settings, now: () => 10_000 }, 100, () => t);
  assert.deepEqual(g.calls.slice(0, 10), [10, 1, 2, 4, 8, 16, 32, 64, 100, 100]);
});

test('usage roll-up: cut at the UTC midnight before now minus the period, in batches of lines until one comes back short; period 0 = never', async () => {
  const calls: Array<[number, number | undefined]> = [];
  let backlog = 2_500;
  const store = { async rollupUsage(before: number, limit?: number) { calls.push([before, limit]); const n = Math.min(backlog, limit ?? backlog); backlog -= n; return n; } } as unknown as Store;
  const now = Date.UTC(2026, 10, 24, 0, 30);
  const rollup = { usageRollupMs: 35 * 86_400_000 } as never;
  assert.equal(await rollupUsage({ store, settings: rollup, now: () => now }, 100, () => 0), 2_500);
  const cut = Date.UTC(2026, 9, 20);
  // From FIRST_BATCH lines, doubled up to 100 requests' worth of lines; the last (230 left) ends the pass.
  assert.equal(100 * ROLLUP_LINES_PER_REQUEST, 1_000);
  assert.deepEqual(calls.map(([, limit]) => limit), [10, 20, 40, 80, 160, 320, 640, 1_000, 1_000]);
  assert.ok(calls.every(([before]) => before === cut));
  calls.length = 0;
  assert.equal(await rollupUsage({ store, settings: { usageRollupMs: 0 } as never, now: () => now }, 100), 0);
  assert.deepEqual(calls, []);
});

test('monitor history: runs and changes past MONITOR_RUNS_DAYS / MONITOR_CHANGES_DAYS go in batches, with event-loop turns between them', async () => {
  const { openSqliteStore } = await import('../store/sqlite/store.ts');
  const { monitorStoreOf } = await import('../store/monitors/index.ts');
  const { monitor } = await import('../store/monitors/conformance.ts');
  const store = await openSqliteStore(':memory:');
  try {
    const m = monitorStoreOf(store);
    await m.createMonitor(monitor('h'));
    const day = 86_400_000;
    // 20 daily runs, each with 100 changes, the newest finished on day 100.
    for (let d = 81; d <= 100; d++) {
      const c = (await m.claimDueRun(d * day, () => (d + 1) * day, () => `req-${d}`))!;
      await m.markRunning(c.run.id);
      const changes = Array.from({ length: 100 }, (_, i) => ({ monitorId: 'h', runId: c.run.id, at: d * day, kind: 'new' as const, identity: `${d}-${i}`, field: null, before: null, after: null, record: null }));
      await m.finishRun(c.run.id, { status: 'done', reason: null, counts: { new: 100, gone: 0, changed: 0, new_reviews: 0, removed: 0, records: 100 }, changes, seen: [], gone: [], now: d * day });
    }
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    const settings = { ...settingsFromEnv({}), monitorRunsMs: 10 * day, monitorChangesMs: 15 * day };
    const gone = await purgeMonitorHistory({ store, settings, now: () => 100.5 * day }, 50);
    clearInterval(ticker);
    // Runs finished before day 90.5 (81..90), changes made before day 85.5 (81..85).
    assert.equal(gone, 10 + 500);
    assert.equal((await m.listRuns('acc1', 'h', { limit: 100 })).length, 10);
    assert.equal((await m.listChanges('acc1', 'h', { limit: 10_000 })).length, 1500);
    assert.ok(turns >= 2, `the event loop turned between batches (${turns})`);
    assert.equal(await purgeMonitorHistory({ store, settings: { ...settings, monitorRunsMs: 0, monitorChangesMs: 0 }, now: () => 1e15 }, 50), 0, '0 keeps them for good');
  } finally {
    await store.close();
  }
});
