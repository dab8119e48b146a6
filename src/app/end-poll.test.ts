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
