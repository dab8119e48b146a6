/**
 * Capture from scrapes: the records the runner holds are taken as they are (no read back); only a
 * streamed query (records == null) is read back from the store, and only its own query's parts.
 * Places are written in batches (issue 37): when the first has waited its delay, when enough wait,
 * on flush; a place seen twice in a batch is written once, as last seen.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openSqliteStore } from '../store/sqlite/store.ts';
import { businessStoreOf } from '../store/businesses/index.ts';
import type { QueryResult, WorkItem } from '../store/contract.ts';
import { BusinessCapture } from './business-capture.ts';

const item: WorkItem = { id: 'i', requestId: 'r', accountId: 'a1', endpoint: '/maps/search', queryIndex: 2, query: 'q', params: {}, attempts: 1, maxAttempts: 3 };
const place = (id: string, name = `place ${id}`) => ({ query: 'q', name, engine_id: id, latitude: 1, longitude: 2 });
const names = async (s: Awaited<ReturnType<typeof openSqliteStore>>) =>
  (await businessStoreOf(s).searchBusinesses({ accountId: 'a1', limit: 10 })).items.map((b) => b.name).sort();

test('held records are captured without reading the store back', async () => {
  const s = await openSqliteStore(':memory:');
  try {
    s.readResults = () => { throw new Error('read back'); };
    const capture = new BusinessCapture(s, { shared: false, now: () => 1000 });
    assert.equal(await capture.add(item, [place('x'), { note: 'not a place' }]), 1);
    assert.equal(await capture.add({ ...item, endpoint: '/search' }, [place('y')]), 0);
    await capture.flush();
    assert.deepEqual(await names(s), ['place x']);
  } finally { await s.close(); }
});

test('a streamed query is read back: its own parts only, from its index on', async () => {
  const s = await openSqliteStore(':memory:');
  try {
    const asked: (number | undefined)[] = [];
    const part = (queryIndex: number, ids: string[]): QueryResult => ({ queryIndex, query: 'q', recordsJson: JSON.stringify(ids.map((id) => place(id))), count: ids.length } as QueryResult);
    s.readResults = async function* (_id: string, after?: number) { asked.push(after); yield part(2, ['a', 'b']); yield part(2, ['c']); yield part(3, ['z']); };
    const capture = new BusinessCapture(s, { shared: false, now: () => 1000 });
    assert.equal(await capture.add(item, null), 3);
    await capture.flush();
    assert.deepEqual(asked, [1]);
    assert.deepEqual(await names(s), ['place a', 'place b', 'place c']);
  } finally { await s.close(); }
});

test('a batch is written when its first place has waited the delay, or when enough places wait; a place seen twice once, as last seen', async () => {
  const s = await openSqliteStore(':memory:');
  try {
    let now = 1000;
    let upserts = 0;
    const db = businessStoreOf(s);
    const upsert = db.upsertBusinesses.bind(db);
    db.upsertBusinesses = (owner, records, at) => { upserts++; return upsert(owner, records, at); };
    const capture = new BusinessCapture(s, { shared: false, now: () => now, delayMs: 100, maxPlaces: 3 });
    await capture.add(item, [place('a', 'old name'), place('b')]);
    now += 99;
    await capture.add(item, [place('a', 'new name')]);
    assert.deepEqual([upserts, await names(s)], [0, []], 'nothing written before the delay');
    now += 1;
    await capture.add(item, [place('b')]);
    assert.deepEqual([upserts, await names(s)], [1, ['new name', 'place b']], 'written once the first place waited 100 ms');
    await capture.add(item, [place('c'), place('d')]);
    assert.equal(upserts, 1);
    await capture.add(item, [place('e')]);
    assert.deepEqual([upserts, await names(s)], [2, ['new name', 'place b', 'place c', 'place d', 'place e']], 'written once 3 distinct places waited');
    await capture.flush();
    assert.equal(upserts, 2, 'nothing left to write');
  } finally { await s.close(); }
});

test('the last places of a burst are written by the timer, without another completion', async () => {
  const s = await openSqliteStore(':memory:');
  try {
    const capture = new BusinessCapture(s, { shared: false, now: Date.now, delayMs: 5 });
    await capture.add(item, [place('t')]);
    for (let i = 0; i < 200 && (await names(s)).length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(await names(s), ['place t']);
  } finally { await s.close(); }
});

/** Counts event-loop turns while it runs: a setImmediate chain, one step a turn. */
function turnCounter() {
  let turns = 0, on = true;
  const spin = () => { turns++; if (on) setImmediate(spin); };
  setImmediate(spin);
  return { get turns() { return turns; }, stop() { on = false; } };
}

test('a big batch is written a slice a transaction, with event-loop turns between two slices (issue 39)', async () => {
  const s = await openSqliteStore(':memory:');
  try {
    const db = businessStoreOf(s);
    const upsert = db.upsertBusinesses.bind(db);
    const calls: { places: number; turn: number }[] = [];
    const loop = turnCounter();
    db.upsertBusinesses = (owner, records, at) => { calls.push({ places: records.length, turn: loop.turns }); return upsert(owner, records, at); };
    const capture = new BusinessCapture(s, { shared: false, now: () => 1000, slice: 50 });
    // One completion of 1,000 places: more than CAPTURE_MAX_PLACES, so add writes them before it returns.
    assert.equal(await capture.add(item, Array.from({ length: 1000 }, (_, i) => place(`p${i}`))), 1000);
    loop.stop();
    assert.equal(calls.length, 20, 'twenty slices of 50, not one upsert of 1,000');
    assert.ok(calls.every((c) => c.places === 50));
    for (let i = 1; i < calls.length; i++) assert.ok(calls[i]!.turn > calls[i - 1]!.turn, `a turn passed between slice ${i - 1} and slice ${i}`);
    assert.equal((await db.searchBusinesses({ accountId: 'a1', limit: 10, includeTotal: true })).total, 1000);
  } finally { await s.close(); }
});

test('batches are written in the order they were taken: a place found again during a long write ends as last found', async () => {
  const s = await openSqliteStore(':memory:');
  try {
    const capture = new BusinessCapture(s, { shared: false, now: () => 1000, slice: 10, maxPlaces: 1_000_000 });
    await capture.add(item, [...Array.from({ length: 100 }, (_, i) => place(`p${i}`)), place('x', 'old name')]);
    const first = capture.flush();
    // Taken while the first batch is being written (it yields between its slices).
    await capture.add(item, [place('x', 'new name')]);
    const second = capture.flush();
    await Promise.all([first, second]);
    const page = await businessStoreOf(s).searchBusinesses({ accountId: 'a1', limit: 10, name: 'name' });
    assert.deepEqual(page.items.map((b) => b.name), ['new name']);
  } finally { await s.close(); }
});

test('a capture stopped between two slices keeps the slices written; the next scrape of the same places writes the rest, none twice', async () => {
  const s = await openSqliteStore(':memory:');
  try {
    const db = businessStoreOf(s);
    const upsert = db.upsertBusinesses.bind(db);
    let calls = 0;
    // The process dies during the fourth slice's write: three slices of ten are committed.
    db.upsertBusinesses = (owner, records, at) => (++calls > 3 ? Promise.reject(new Error('killed')) : upsert(owner, records, at));
    const places = Array.from({ length: 100 }, (_, i) => place(`p${i}`));
    await assert.rejects(new BusinessCapture(s, { shared: false, now: () => 1000, slice: 10, maxPlaces: 50 }).add(item, places), /killed/);
    const total = async () => (await db.searchBusinesses({ accountId: 'a1', limit: 1, includeTotal: true })).total;
    assert.equal(await total(), 30);
    db.upsertBusinesses = upsert;
    const next = new BusinessCapture(s, { shared: false, now: () => 2000, slice: 10 });
    await next.add(item, places);
    await next.flush();
    assert.equal(await total(), 100, 'each place once, those written before updated in place');
  } finally { await s.close(); }
});
