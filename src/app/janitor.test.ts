import { test } from 'node:test';
import assert from 'node:assert/strict';
import { purgeExpired } from './janitor.ts';
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
  const total = await purgeExpired({ store: f.store, settings, now: () => 10_000 }, 500);
  clearInterval(ticker);
  clearImmediate(counting);
  assert.equal(total, 1_250);
  assert.deepEqual(f.calls, [500, 500, 500], 'three batches of at most 500; the third (250) ends the pass');
  assert.equal(f.left(), 0);
  assert.ok(turns >= 2, `other callbacks ran between batches (${turns})`);
});

test('nothing expired: one cheap call', async () => {
  const f = fakeStore(0);
  assert.equal(await purgeExpired({ store: f.store, settings, now: () => 10_000 }, 500), 0);
  assert.deepEqual(f.calls, [500]);
});

test('batch 0: one call without a limit (everything in one transaction)', async () => {
  const f = fakeStore(1_250);
  assert.equal(await purgeExpired({ store: f.store, settings, now: () => 10_000 }, 0), 1_250);
  assert.deepEqual(f.calls, [undefined]);
});
