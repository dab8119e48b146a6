import { test } from 'node:test';
import { readdirSync } from 'node:fs';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import pg from 'pg';
import { storeConformance } from '../conformance.ts';
import type { NewRequest, Store } from '../contract.ts';
import { PG_SKIP, openScratchPostgresStore, pgTestUrl } from './testing.ts';
import { PostgresStore, openPostgresStore } from './store.ts';
import { StoreUnavailableError } from './errors.ts';
import { isStoreUnavailable } from '../unavailable.ts';
import { privatePostgresUnavailable, startPrivatePostgres } from './private-server.ts';

const url = pgTestUrl();
const skip = url ? false : PG_SKIP;

storeConformance('postgres', () => openScratchPostgresStore(url!), { skip });

const account = (s: Store, balance = 1_000) => s.createAccount({ id: randomUUID(), name: 'a', balanceMicros: balance * 1_000_000, creditLimitMicros: 0, currency: 'usd',
  pastDue: false, webhookSecret: 's', webhookUrl: null, ratePerSec: 20, burst: 40, createdAt: 1 });
const request = (accountId: string, queries: string[], patch: Partial<NewRequest> = {}): NewRequest => ({
  id: randomUUID(), accountId, endpoint: '/t', params: {}, queries, webhook: null, product: 'p', unit: 'record', unitPriceMicros: 1_000_000,
  emptyCostsOne: true, dropDuplicates: false, taskId: null, maxAttempts: 3, createdAt: 1_000, ...patch,
});

test('postgres store: concurrent claimers never share an item; concurrent completions bill once and end the request once', { skip }, async () => {
  const s = await openScratchPostgresStore(url!, { max: 12 });
  try {
    const a = await account(s);
    const r = request(a.id, Array.from({ length: 200 }, (_, i) => `q${i}`));
    await s.createRequest(r);
    const owners = Array.from({ length: 8 }, (_, i) => `w${i}`);
    const claimed = await Promise.all(owners.map(async (o) => {
      const got: string[] = [];
      for (;;) {
        const items = await s.claimItems(o, 7, 60_000, 2_000);
        if (!items.length) return got;
        got.push(...items.map((i) => i.id));
        // Each owner completes what it got, twice over, to race repeated deliveries too.
        const fans = await Promise.all(items.flatMap((i) => [0, 1].map(() =>
          s.completeItem({ itemId: i.id, owner: o, recordsJson: '[1,2]', count: 2, now: 3_000 }))));
        assert.equal(fans.filter((f) => f.applied).length, items.length, 'exactly one of two completions applies');
      }
    }));
    const all = claimed.flat();
    assert.equal(all.length, 200);
    assert.equal(new Set(all).size, 200, 'no item was claimed twice');
    const req = await s.getRequest(r.id);
    assert.equal(req?.status, 'Success');
    assert.equal(req?.queriesDone, 200);
    assert.equal(req?.records, 400);
    assert.equal(req?.usage, 400);
    assert.equal((await s.getAccount(a.id))?.balanceMicros, (1_000 - 400) * 1_000_000);
  } finally { await s.close(); }
});

test('postgres store: concurrent completions never deliver or bill past totalLimit', { skip }, async () => {
  const s = await openScratchPostgresStore(url!, { max: 12 });
  try {
    const a = await account(s);
    const r = request(a.id, Array.from({ length: 24 }, (_, i) => `q${i}`));
    await s.createRequest(r);
    const items = await s.claimItems('w', 24, 60_000, 2_000);
    await Promise.all(items.map((i) => s.completeItem({ itemId: i.id, owner: 'w', recordsJson: '[1,2,3]', count: 3, totalLimit: 10, now: 3_000 })));
    const row = await s.getRequest(r.id);
    assert.equal(row?.status, 'Success');
    assert.equal(row?.records, 10);
    assert.equal(row?.usage, 10, 'items cut away entirely cost nothing');
    let delivered = 0;
    for await (const x of s.readResults(r.id)) delivered += (JSON.parse(x.recordsJson) as unknown[]).length;
    assert.equal(delivered, 10);
  } finally { await s.close(); }
});

test('postgres store: cancel racing completions leaves consistent counters', { skip }, async () => {
  const s = await openScratchPostgresStore(url!, { max: 12 });
  try {
    const a = await account(s);
    for (let round = 0; round < 10; round++) {
      const r = request(a.id, ['a', 'b', 'c', 'd'], { webhook: 'http://127.0.0.1:1/h' });
      await s.createRequest(r);
      const items = await s.claimItems(`w${round}`, 4, 60_000, 2_000, [0, 1, 2, 3].map((i) => `${r.id}:${i}`));
      const fans = await Promise.all([
        ...items.map((i) => s.completeItem({ itemId: i.id, owner: `w${round}`, recordsJson: '[]', count: 0, now: 3_000 })),
        s.cancelRequest(r.id, 3_000),
      ]);
      const ended = fans.filter((f) => f.finished);
      assert.equal(ended.length, 1, 'the request ended exactly once');
      const row = await s.getRequest(r.id);
      assert.equal(row?.queriesDone, 4);
      assert.notEqual(row?.status, 'Pending');
      assert.equal(row?.usage, fans.slice(0, 4).filter((f) => f.applied).length, 'billed once per applied completion');
    }
    assert.equal((await s.claimDueWebhooks(10_000, 100, 1_000)).length, 10, 'one webhook delivery per ended request');
  } finally { await s.close(); }
});

test('postgres store: records text and params key order come back exactly as written', { skip }, async () => {
  const s = await openScratchPostgresStore(url!);
  try {
    const a = await account(s);
    const r = request(a.id, ['x'], { params: { zeta: 1, alpha: { b: 2, a: 1 } } });
    await s.createRequest(r);
    const [it] = await s.claimItems('w', 1, 60_000, 2_000);
    assert.deepEqual(Object.keys(it.params), ['zeta', 'alpha']);
    const text = '[ {"b": 1, "a": "é\\u0000"} ]';
    await s.completeItem({ itemId: it.id, owner: 'w', recordsJson: text, count: 1, now: 3_000 });
    for await (const x of s.readResults(r.id)) assert.equal(x.recordsJson, text);
    assert.deepEqual(Object.keys((await s.getRequest(r.id))!.params), ['zeta', 'alpha']);
  } finally { await s.close(); }
});

test('postgres store: results page through a large request in query order', { skip }, async () => {
  const s = await openScratchPostgresStore(url!);
  try {
    const a = await account(s);
    const r = request(a.id, Array.from({ length: 45 }, (_, i) => `q${i}`));
    await s.createRequest(r);
    const items = await s.claimItems('w', 100, 60_000, 2_000);
    for (const it of items.reverse()) await s.completeItem({ itemId: it.id, owner: 'w', recordsJson: `[${it.queryIndex}]`, count: 1, now: 3_000 });
    const seen: number[] = [];
    for await (const x of s.readResults(r.id)) { assert.equal(x.recordsJson, `[${x.queryIndex}]`); assert.equal(x.query, `q${x.queryIndex}`); seen.push(x.queryIndex); }
    assert.deepEqual(seen, Array.from({ length: 45 }, (_, i) => i));
  } finally { await s.close(); }
});

test('postgres store: processes starting at once migrate once', { skip }, async () => {
  const first = await openScratchPostgresStore(url!);
  const others = Array.from({ length: 4 }, () => new PostgresStore(url!, { schema: first.schema! }));
  try {
    await first.pool.query('DROP SCHEMA ' + first.schema + ' CASCADE');
    await Promise.all(others.map((o) => o.migrate()));
    const { rows } = await first.pool.query('SELECT version, name FROM schema_migrations ORDER BY version');
    // Every migration file once, in order (the list grows with the schema).
    const files = readdirSync(new URL('./migrations/', import.meta.url)).filter((f) => /^\d+_.*\.sql$/.test(f)).sort();
    assert.deepEqual(rows, files.map((name) => ({ version: Number(name.split('_')[0]), name })));
    await others[0].migrate();
    assert.equal((await first.pool.query('SELECT COUNT(*)::int AS n FROM schema_migrations')).rows[0].n, files.length, 'a second run applies nothing');
  } finally {
    await Promise.all(others.map((o) => o.close()));
    await first.close();
  }
});

test('postgres store: a refused connection is StoreUnavailableError', async () => {
  const s = new PostgresStore('postgres://postgres@127.0.0.1:1/none', { connectTimeoutMs: 2_000 });
  try {
    await assert.rejects(s.ping(), (e: unknown) => e instanceof StoreUnavailableError && isStoreUnavailable(e));
    await assert.rejects(s.getRequest('x'), StoreUnavailableError);
    await assert.rejects(s.completeItem({ itemId: 'x', owner: 'w', recordsJson: '[]', count: 0, now: 1 }), StoreUnavailableError);
    await assert.rejects(openPostgresStore('postgres://postgres@127.0.0.1:1/none', { connectTimeoutMs: 2_000 }), StoreUnavailableError);
  } finally { await s.close(); }
});

test('postgres store: a server that accepts but never answers times out as StoreUnavailableError', async () => {
  const sockets: Socket[] = [];
  const silent = createServer((sock) => { sockets.push(sock); });
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  const port = (silent.address() as { port: number }).port;
  const s = new PostgresStore(`postgres://postgres@127.0.0.1:${port}/x`, { connectTimeoutMs: 300 });
  try {
    const t0 = Date.now();
    await assert.rejects(s.ping(), StoreUnavailableError);
    assert.ok(Date.now() - t0 < 3_000, 'bounded by the connect timeout');
  } finally {
    await s.close();
    for (const x of sockets) x.destroy();
    silent.close();
  }
});

test('postgres store: connections killed by the server are replaced; an interrupted query is StoreUnavailableError', { skip }, async () => {
  const app = `trawl-kill-${randomUUID().slice(0, 8)}`;
  const s = await openScratchPostgresStore(url!, { max: 3, applicationName: app });
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await Promise.all([s.ping(), s.ping(), s.ping()]);
    const slow = s.pool.query('SELECT pg_sleep(10)').catch((e) => e);
    await new Promise((r) => setTimeout(r, 200));
    const killed = await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                                      WHERE application_name = $1 AND pid <> pg_backend_pid()`, [app]);
    assert.ok(killed.rowCount! >= 1);
    const e = await slow;
    assert.equal(isStoreUnavailable(e), true, `interrupted query error: ${e?.code} ${e?.message}`);
    // The pool dropped the dead connections; the next calls open new ones.
    await new Promise((r) => setTimeout(r, 100));
    for (let i = 0; i < 5; i++) await s.ping();
    const a = await account(s);
    assert.ok(await s.getAccount(a.id));
  } finally {
    await admin.end();
    await s.close();
  }
});

// Runs a throw-away server of its own, but only where database tests are enabled at all.
const privateSkip = !url ? PG_SKIP : privatePostgresUnavailable();
test('postgres store: survives the database stopping and starting again', { skip: privateSkip ? (url ? `no private PostgreSQL server: ${privateSkip}` : privateSkip) : false, timeout: 60_000 }, async () => {
  const server = await startPrivatePostgres();
  const s = await openPostgresStore(server!.url, { connectTimeoutMs: 1_000 });
  try {
    const a = await account(s);
    await server!.stop('fast');
    await assert.rejects(s.getAccount(a.id), StoreUnavailableError);
    await assert.rejects(s.ping(), (e: unknown) => isStoreUnavailable(e));
    await server!.start();
    assert.equal((await s.getAccount(a.id))?.id, a.id, 'the same store answers once the server is back');
    await server!.stop('immediate');
    await assert.rejects(s.ping(), StoreUnavailableError);
    await server!.start();
    await s.ping();
  } finally {
    await s.close();
    await server!.destroy();
  }
});

test('postgres store: commits do not wait for the WAL flush unless asked to (SQLite WAL NORMAL equivalent)', { skip }, async () => {
  const lazy = await openScratchPostgresStore(url!);
  const strict = new PostgresStore(url!, { schema: lazy.schema!, synchronousCommit: true });
  try {
    assert.equal((await lazy.pool.query('SHOW synchronous_commit')).rows[0].synchronous_commit, 'off');
    assert.equal((await strict.pool.query('SHOW synchronous_commit')).rows[0].synchronous_commit, 'on');
    assert.equal((await lazy.pool.query('SHOW search_path')).rows[0].search_path, lazy.schema);
    // Money goes through a flushed commit either way.
    const a = await account(lazy, 5);
    assert.equal(await lazy.addBalance(a.id, 1_000_000), 6_000_000);
    assert.equal(await strict.addBalance(a.id, 1_000_000), 7_000_000);
  } finally {
    await strict.close();
    await lazy.close();
  }
});

/** A scripted history run on both stores; everything observable must come out the same. */
async function scenario(s: Store) {
  const a = await s.createAccount({ id: 'acct', name: 'a', balanceMicros: 100_000_000, creditLimitMicros: 0, currency: 'usd', pastDue: false,
    webhookSecret: 's', webhookUrl: 'http://127.0.0.1:9/account-hook', ratePerSec: 20, burst: 40, createdAt: 1 });
  const out: unknown[] = [];
  const base = { accountId: a.id, endpoint: '/t', params: { k: 1 }, product: 'p', unit: 'record', taskId: null, maxAttempts: 2, createdAt: 1_000 };
  await s.createRequest({ ...base, id: 'dup', queries: ['a', 'b'], webhook: 'http://127.0.0.1:9/req-hook', unitPriceMicros: 500_000, emptyCostsOne: true, dropDuplicates: true });
  await s.createRequest({ ...base, id: 'plain', queries: ['x', 'y', 'z'], webhook: null, unitPriceMicros: 250_000, emptyCostsOne: false, dropDuplicates: false });
  await s.createRequest({ ...base, id: 'fails', queries: ['f'], webhook: null, unitPriceMicros: 1_000_000, emptyCostsOne: true, dropDuplicates: true });
  // What the claim read of the account (PostgreSQL's, for the purse) is a moment's figure, not the history's.
  const byId = async (id: string, now = 2_000) => {
    const it = (await s.claimItems('w', 1, 10_000, now, [id]))[0];
    if (it) delete it.payable;
    return it;
  };
  // dup: 61 records all with one key, then an empty query: 60 dropped > 50 x 1 kept, so a surcharge.
  await byId('dup:0');
  out.push(await s.completeItem({ itemId: 'dup:0', owner: 'w', recordsJson: '[1]', count: 61, dedupeKeys: Array(61).fill('k1'), now: 2_100 }));
  await byId('dup:1');
  out.push(await s.completeItem({ itemId: 'dup:1', owner: 'w', recordsJson: '[]', count: 0, dedupeKeys: [], now: 2_200 }));
  // plain: a retry, a permanent failure, a completion, a stale completion.
  await byId('plain:0');
  out.push(await s.failItem('plain:0', 'w', 'network: reset', 2_500, 2_300));
  out.push(await byId('plain:0') ?? null, 'not due yet');
  out.push(await byId('plain:0', 2_550));
  out.push(await s.completeItem({ itemId: 'plain:0', owner: 'w', recordsJson: '[{"r":1},{"r":2}]', count: 2, now: 2_600 }));
  await byId('plain:1');
  out.push(await s.failItem('plain:1', 'w', 'layout_changed: x', null, 2_700));
  out.push(await s.completeItem({ itemId: 'plain:2', owner: 'w', recordsJson: '[]', count: 0, now: 2_800 }), 'stale');
  await byId('plain:2');
  out.push(await s.completeItem({ itemId: 'plain:2', owner: 'w', recordsJson: '[]', count: 0, now: 2_900 }));
  // fails: a dropDuplicates request ending by failure; no surcharge, account hook.
  await byId('fails:0');
  out.push(await s.failItem('fails:0', 'w', 'blocked: 403', null, 3_000));
  // totalLimit 5 over three items of 3, 4 and 2 records: 3 kept, 2 of 4 kept, the last cut away (free).
  await s.createRequest({ ...base, id: 'lim', queries: ['a', 'b', 'c'], webhook: null, unitPriceMicros: 1_000_000, emptyCostsOne: true, dropDuplicates: false });
  for (const [i, recs] of [[0, [1, 2, 3]], [1, [4, 5, 6, 7]], [2, [8, 9]]] as const) {
    await byId(`lim:${i}`);
    out.push(await s.completeItem({ itemId: `lim:${i}`, owner: 'w', recordsJson: JSON.stringify(recs), count: recs.length, totalLimit: 5, now: 3_100 + i }));
  }
  // Billable units other than the record count.
  await s.createRequest({ ...base, id: 'units', queries: ['u'], webhook: null, unitPriceMicros: 100_000, emptyCostsOne: false, dropDuplicates: false });
  await byId('units:0');
  out.push(await s.completeItem({ itemId: 'units:0', owner: 'w', recordsJson: '[{"p":1},{"p":2}]', count: 2, units: 7, now: 3_200 }));
  // dropDuplicates where the second item brings nothing new: an empty-costs-one item then costs one.
  await s.createRequest({ ...base, id: 'dup2', queries: ['a', 'b'], webhook: null, unitPriceMicros: 1_000_000, emptyCostsOne: true, dropDuplicates: true });
  for (const i of [0, 1]) {
    await byId(`dup2:${i}`);
    out.push(await s.completeItem({ itemId: `dup2:${i}`, owner: 'w', recordsJson: '[{"x":1}]', count: 1, dedupeKeys: ['x'], now: 3_300 + i }));
  }
  for (const id of ['dup', 'plain', 'fails', 'lim', 'units', 'dup2']) {
    out.push(await s.getRequest(id));
    const rs = [];
    for await (const x of s.readResults(id)) rs.push(x);
    out.push(rs);
  }
  out.push((await s.getAccount(a.id))?.balanceMicros, await s.usageForPeriod(a.id, 0, 10_000), await s.itemCounts());
  out.push((await s.claimDueWebhooks(5_000, 10, 1_000)).sort((x, y) => x.id.localeCompare(y.id)));
  return out;
}

test('postgres store: a scripted history ends exactly as it does on SQLite', { skip }, async () => {
  const { openSqliteStore } = await import('../sqlite/store.ts');
  const lite = await openSqliteStore(':memory:');
  const pgs = await openScratchPostgresStore(url!);
  try {
    // A completion's `stored` (the result as stored, for the synchronous answer) and `deliveries`
    // (whether its end made a webhook delivery) are optional, told by one store and not the other;
    // what both store is compared through readResults and the deliveries claimed at the end.
    const unstored = (xs: unknown[]) => xs.map((x) => (x && typeof x === 'object' && 'applied' in x ? { ...x, stored: undefined, deliveries: undefined } : x));
    const expected = unstored(await scenario(lite));
    const actual = unstored(await scenario(pgs));
    assert.deepEqual(actual, expected);
    const req = (id: string) => expected.find((x) => (x as { id?: string })?.id === id) as { usage: number; records: number };
    assert.equal(req('dup').usage, 1 + 1 + 60, 'sanity: the surcharge was billed (1 new key, 1 empty query, 60 dropped)');
    assert.deepEqual([req('lim').records, req('lim').usage], [5, 5], 'sanity: totalLimit cut records and billing');
    assert.equal(req('units').usage, 7, 'sanity: units billed');
    assert.equal(req('dup2').usage, 1, 'sanity: an item with only duplicates found records: not an empty search, it costs nothing');
    const hooks = expected[expected.length - 1] as { url: string }[];
    assert.equal(hooks.length, 6, 'sanity: a delivery per ended request (the account has a webhook)');
  } finally {
    await lite.close();
    await pgs.close();
  }
});

test('postgres store: an ending completion or failure says whether it made a webhook delivery; one that ends nothing says nothing', { skip }, async () => {
  const s = await openScratchPostgresStore(url!);
  try {
    const a = await account(s);
    const end = async (r: NewRequest, fail = false) => {
      await s.createRequest(r);
      const [it] = await s.claimItems('w', 1, 60_000, 2_000, [`${r.id}:0`]);
      return fail ? s.failItem(it.id, 'w', 'gone', null, 3_000) : s.completeItem({ itemId: it.id, owner: 'w', recordsJson: '[]', count: 0, now: 3_000 });
    };
    assert.equal((await end(request(a.id, ['x']))).deliveries, false, 'no webhook: none');
    assert.equal((await end(request(a.id, ['x']), true)).deliveries, false, 'failed, no webhook: none');
    assert.equal((await end(request(a.id, ['x'], { webhook: 'https://example.com/h' }))).deliveries, true, 'its own webhook');
    const two = await end(request(a.id, ['x', 'y']));
    assert.deepEqual([two.finished, two.deliveries], [null, undefined], 'not ended');
    await s.createWebhookSubscription({ id: randomUUID(), accountId: a.id, url: 'https://example.com/s', events: ['request.finished'], description: null, created: 1 }, 10);
    assert.equal((await end(request(a.id, ['x']))).deliveries, true, 'a subscription to request.finished');
    assert.equal((await s.claimDueWebhooks(5_000, 10, 60_000)).length, 2, 'the two made');
  } finally { await s.close(); }
});
