/**
 * Round trips to PostgreSQL on a map search's path (issue 37): each is a reply pg parses on the API
 * thread and a statement the server parses, plans and runs on the same cores. Counted, not timed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { NewRequest, Store } from '../contract.ts';
import { PG_SKIP, openScratchPostgresStore, pgTestUrl } from './testing.ts';
import { businessStoreOf } from '../businesses/index.ts';
import { business } from '../businesses/conformance.ts';

const url = pgTestUrl();
const skip = url ? false : PG_SKIP;

/** The statements `f` sends (every pg client's query calls while it runs), with their values. */
async function sent<T>(f: () => Promise<T>): Promise<{ out: T; sql: string[]; values: unknown[][] }> {
  const sql: string[] = [];
  const values: unknown[][] = [];
  const orig = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, config: unknown, ...rest: unknown[]) {
    sql.push(typeof config === 'string' ? config : (config as { text: string }).text);
    values.push(typeof config === 'string' ? [] : (config as { values?: unknown[] }).values ?? []);
    return (orig as (...a: unknown[]) => unknown).call(this, config, ...rest);
  } as typeof orig;
  try {
    return { out: await f(), sql, values };
  } finally {
    pg.Client.prototype.query = orig;
  }
}

const account = (s: Store) => s.createAccount({ id: randomUUID(), name: 'a', balanceMicros: 1e9, creditLimitMicros: 0, currency: 'usd',
  pastDue: false, webhookSecret: 's', webhookUrl: null, ratePerSec: 20, burst: 40, createdAt: 1 });
const request = (accountId: string, queries: string[], params: Record<string, unknown>): NewRequest => ({
  id: randomUUID(), accountId, endpoint: '/maps/search', params, queries, webhook: null, product: 'p', unit: 'record', unitPriceMicros: 1_000,
  emptyCostsOne: true, dropDuplicates: false, taskId: null, maxAttempts: 3, createdAt: 1_000,
});

test('a claim is one round trip: the fair order, the lease, the parameters of a request not cached and whether a checkpoint exists', { skip }, async () => {
  const s = await openScratchPostgresStore(url!);
  try {
    const a = await account(s);
    const r = request(a.id, ['coffee', 'tea'], { limit: 20, language: 'en' });
    await s.createRequest(r);
    const first = await sent(() => s.claimItems('w', 1, 60_000, 2_000));
    assert.equal(first.sql.length, 1, first.sql.join('\n---\n'));
    assert.deepEqual(first.out.map((x) => [x.id, x.params, x.unitPriceMicros, x.checkpointed]), [[`${r.id}:0`, { limit: 20, language: 'en' }, 1_000, false]]);
    // The request's parameters are cached now: the next claim does not carry them, and still gives them.
    const next = await sent(() => s.claimItems('w', 1, 60_000, 2_000));
    assert.equal(next.sql.length, 1);
    assert.deepEqual(next.out.map((x) => [x.id, x.params]), [[`${r.id}:1`, { limit: 20, language: 'en' }]]);
  } finally { await s.close(); }
});

test('a claim carries the ids of cached parameters of requests of several queries only: one of one query is claimed once', { skip }, async () => {
  const s = await openScratchPostgresStore(url!);
  try {
    const a = await account(s);
    const one = request(a.id, ['coffee'], { limit: 1 });
    const two = request(a.id, ['tea', 'cake'], { limit: 2 });
    await s.createRequest(one);
    await s.createRequest(two);
    const first = await s.claimItems('w', 2, 60_000, 2_000);
    assert.deepEqual(first.map((x) => [x.id, x.params]).sort(), [[`${one.id}:0`, { limit: 1 }], [`${two.id}:0`, { limit: 2 }]].sort());
    assert.ok(Object.isFrozen(first.find((x) => x.requestId === one.id)!.params), 'frozen as the cached ones');
    const next = await sent(() => s.claimItems('w', 1, 60_000, 2_000));
    assert.deepEqual(next.values[0][4], [two.id], 'the cached ids sent: the request of two queries only');
    assert.deepEqual(next.out.map((x) => [x.id, x.params]), [[`${two.id}:1`, { limit: 2 }]]);
  } finally { await s.close(); }
});

test('a capture of places found as they were is one round trip; a changed place is written as before', { skip }, async () => {
  const s = await openScratchPostgresStore(url!);
  try {
    const b = businessStoreOf(s);
    const places = [business('g1', { name: 'Golden Bean', types: ['Cafe'] }), business('g2', { name: 'Blue Cup', types: ['Cafe'] })];
    assert.deepEqual(await b.upsertBusinesses('a1', places, 1_000_000), { added: 2, updated: 0 });
    const again = await sent(() => b.upsertBusinesses('a1', places, 2_000_000));
    assert.deepEqual(again.out, { added: 0, updated: 2 });
    assert.equal(again.sql.length, 1, again.sql.join('\n---\n'));
    const changed = await sent(() => b.upsertBusinesses('a1', [places[0], { ...places[1], name: 'Blue Mug' }], 3_000_000));
    assert.deepEqual(changed.out, { added: 0, updated: 2 });
    assert.deepEqual((await b.searchBusinesses({ accountId: 'a1', osIds: [places[1].os_id], limit: 10 })).items.map((x) => x.name), ['Blue Mug']);
  } finally { await s.close(); }
});

test('a completion leaves out the checkpoint deletes only for an item leased without one and with none saved since; a saved one is dropped', { skip }, async () => {
  const s = await openScratchPostgresStore(url!);
  try {
    const a = await account(s);
    const complete = (id: string, owner = 'w') => sent(() => s.completeItem({ itemId: id, owner, recordsJson: '[{"n":1}]', count: 1, now: 2_000 }));
    const touches = (sql: string[]) => sql.some((x) => /item_progress|result_chunks/.test(x));
    // Leased with none, none saved: the usual completion, without the deletes (nor keys or enrichments).
    const plain = request(a.id, ['coffee'], { limit: 1 });
    await s.createRequest(plain);
    const [p] = await s.claimItems('w', 1, 60_000, 2_000);
    const done = await complete(p.id);
    assert.equal(done.out.applied, true);
    assert.equal(done.sql.length, 1);
    assert.equal(touches(done.sql), false, done.sql[0]);
    assert.doesNotMatch(done.sql[0], /request_keys|unnest\(\$13/);
    // A checkpoint saved after the claim (a buffering adapter's, with a chunk): the full statement drops it.
    const saved = request(a.id, ['tea'], { limit: 1 });
    await s.createRequest(saved);
    const [q] = await s.claimItems('w', 1, 60_000, 2_000);
    assert.equal(q.checkpointed, false);
    assert.equal(await s.saveProgress({ itemId: q.id, owner: 'w', state: '{}', chunk: { recordsJson: '[{"b":1}]', count: 1 }, now: 2_100 }), true);
    const full = await complete(q.id);
    assert.equal(touches(full.sql), true);
    assert.equal(await s.loadProgress(q.id), null, 'the checkpoint is dropped');
    assert.equal((await s.pool.query('SELECT count(*)::int AS n FROM result_chunks WHERE request_id = $1', [saved.id])).rows[0].n, 0, 'and its chunks');
    // Leased again with one (saved under a lease that ran out): the full statement, the checkpoint dropped.
    const again = request(a.id, ['cake'], { limit: 1 });
    await s.createRequest(again);
    const [r1] = await s.claimItems('w1', 1, 1_000, 3_000);
    await s.saveProgress({ itemId: r1.id, owner: 'w1', state: '{"step":1}', chunk: { recordsJson: '[{"c":1}]', count: 1 }, now: 3_100 });
    const [r2] = await s.claimItems('w2', 1, 60_000, 5_000);
    assert.deepEqual([r2.id, r2.checkpointed], [r1.id, true]);
    const stale = await complete(r1.id, 'w1');
    assert.equal(stale.out.applied, false, 'the lease ran out');
    const ended = await complete(r2.id, 'w2');
    assert.equal(ended.out.applied, true);
    assert.equal(touches(ended.sql), true);
    assert.equal(await s.loadProgress(r2.id), null);
  } finally { await s.close(); }
});
