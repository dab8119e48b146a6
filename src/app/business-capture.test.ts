/**
 * Capture from scrapes: the records the runner holds are taken as they are (no read back); only a
 * streamed query (records == null) is read back from the store, and only its own query's parts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openSqliteStore } from '../store/sqlite/store.ts';
import { businessStoreOf } from '../store/businesses/index.ts';
import type { QueryResult, WorkItem } from '../store/contract.ts';
import { captureBusinesses } from './business-capture.ts';

const item: WorkItem = { id: 'i', requestId: 'r', accountId: 'a1', endpoint: '/maps/search', queryIndex: 2, query: 'q', params: {}, attempts: 1, maxAttempts: 3 };
const place = (id: string) => ({ query: 'q', name: `place ${id}`, engine_id: id, latitude: 1, longitude: 2 });
const names = async (s: Awaited<ReturnType<typeof openSqliteStore>>) =>
  (await businessStoreOf(s).searchBusinesses({ accountId: 'a1', limit: 10 })).items.map((b) => b.name).sort();

test('held records are captured without reading the store back', async () => {
  const s = await openSqliteStore(':memory:');
  try {
    s.readResults = () => { throw new Error('read back'); };
    assert.equal(await captureBusinesses(s, { shared: false, now: 1000 }, item, [place('x'), { note: 'not a place' }]), 1);
    assert.deepEqual(await names(s), ['place x']);
    assert.equal(await captureBusinesses(s, { shared: false, now: 1000 }, { ...item, endpoint: '/search' }, [place('y')]), 0);
  } finally { await s.close(); }
});

test('a streamed query is read back: its own parts only, from its index on', async () => {
  const s = await openSqliteStore(':memory:');
  try {
    const asked: (number | undefined)[] = [];
    const part = (queryIndex: number, ids: string[]): QueryResult => ({ queryIndex, query: 'q', recordsJson: JSON.stringify(ids.map(place)), count: ids.length } as QueryResult);
    s.readResults = async function* (_id: string, after?: number) { asked.push(after); yield part(2, ['a', 'b']); yield part(2, ['c']); yield part(3, ['z']); };
    assert.equal(await captureBusinesses(s, { shared: false, now: 1000 }, item, null), 3);
    assert.deepEqual(asked, [1]);
    assert.deepEqual(await names(s), ['place a', 'place b', 'place c']);
  } finally { await s.close(); }
});
