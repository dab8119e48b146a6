/**
 * Synchronous waits polled together (issue 37): another process may end a request, so the store is
 * read every 250 ms, once for all the waits of the process, not once per wait.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { waitForEnd } from './results.ts';
import type { AppContext } from './context.ts';
import type { RequestRow } from '../store/contract.ts';

test('the waits of one process are polled in one read, each ends with its row or at its deadline', { timeout: 10_000 }, async () => {
  const reads: string[][] = [];
  const ended = new Set<string>();
  const row = (id: string) => ({ id, finishedAt: 1 } as RequestRow);
  const store = {
    endedRequests: async (ids: string[]) => { reads.push([...ids].sort()); return ids.filter((id) => ended.has(id)).map(row); },
    getRequest: async () => { throw new Error('a wait read its request alone'); },
  };
  const ctx = { store, events: new EventEmitter(), now: Date.now } as unknown as AppContext;
  const waits = [waitForEnd(ctx, 'a', 10_000), waitForEnd(ctx, 'b', 10_000), waitForEnd(ctx, 'c', 600)];
  // Another process ends a and b (no event here): the poll finds them.
  setTimeout(() => { ended.add('a'); ended.add('b'); }, 300);
  const [a, b, c] = await Promise.all(waits);
  assert.equal(a?.row.id, 'a');
  assert.equal(b?.row.id, 'b');
  assert.equal(c, null, 'c ends at its deadline');
  assert.deepEqual(reads[0], ['a', 'b', 'c'], 'one read asks for every wait');
  assert.ok(reads.every((ids) => ids.length >= 1));
  // An event of this process's workers ends a wait without a read.
  const before = reads.length;
  const d = waitForEnd(ctx, 'd', 10_000);
  ctx.events.emit('finished', row('d'));
  assert.equal((await d)?.row.id, 'd');
  assert.equal(reads.length, before);
});

test("the ends this process announces reach the waits through one listener, by id, each with its results", { timeout: 10_000 }, async () => {
  const store = { endedRequests: async () => [], getRequest: async () => { throw new Error('a wait read its request alone'); } };
  const ctx = { store, events: new EventEmitter(), now: Date.now } as unknown as AppContext;
  const ids = Array.from({ length: 40 }, (_, i) => `r${i}`);
  const waits = ids.map((id) => waitForEnd(ctx, id, 10_000));
  assert.equal(ctx.events.listenerCount('finished'), 1, 'one listener for every wait');
  for (const id of [...ids].reverse()) ctx.events.emit('finished', { id, finishedAt: 1 } as RequestRow, [{ queryIndex: 0, query: id, recordsJson: '[]', count: 0, error: null }]);
  const got = await Promise.all(waits);
  assert.deepEqual(got.map((g) => g?.row.id), ids, 'each wait ends with its own row');
  assert.deepEqual(got.map((g) => g?.results?.[0].query), ids, 'and its own results');
  assert.equal(ctx.events.listenerCount('finished'), 0, 'the listener goes with the last wait');
});
