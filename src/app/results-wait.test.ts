import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { openSqliteStore } from '../store/sqlite/store.ts';
import { oneRequest } from '../../test/support/one-request.ts';
import { waitForEnd } from './results.ts';
import type { AppContext } from './context.ts';

test('a synchronous wait polls whether its request ended and reads the row once, when it has (issue 37)', { timeout: 30_000 }, async () => {
  const store = await openSqliteStore(':memory:');
  try {
    const { id } = await oneRequest(store, 1e9);
    let ends = 0;
    let rows = 0;
    // The poll asks for the ended ones of the waiting requests (one read for every wait of the
    // process, app/results.ts): rows come back only for requests that ended.
    const endedRequests = store.endedRequests.bind(store);
    const getRequest = store.getRequest.bind(store);
    store.endedRequests = async (x) => { ends++; const got = await endedRequests(x); rows += got.length; return got; };
    store.getRequest = (x) => { rows++; return getRequest(x); };
    // No worker of this process: only the poll can see the end (another process's worker ends it).
    const ctx = { store, now: Date.now, events: new EventEmitter() } as unknown as AppContext;
    const waiting = waitForEnd(ctx, id, 8_000);
    const deadline = Date.now() + 6_000;
    while (ends < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.ok(ends >= 2, 'the poll asks whether the request ended');
    assert.equal(rows, 0, 'no row read while it runs');
    store.db.prepare("UPDATE requests SET status = 'Success', finished_at = ? WHERE id = ?").run(Date.now(), id);
    const end = await waiting;
    assert.equal(end?.row.id, id);
    assert.equal(end?.row.status, 'Success');
    assert.equal(rows, 1, 'the row read once, when it ended');
  } finally {
    await store.close();
  }
});
