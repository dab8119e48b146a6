/**
 * What keeps a map search's cost on the PostgreSQL server down (issue 37): stored records compressed
 * with lz4 (migration 156), a batch's insert planned once for any values (PgDb.qPlannedOnce), and an
 * item's end, and a batch's credit check, reading its request or account by key whatever plan it is given.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { COMPLETE_ITEM, FAIL_ITEM, completeArgs, completeItemFor } from './complete-item.ts';
import { ENDED_REQUESTS, INSERT_REQUESTS } from './requests.ts';
import { PG_SKIP, openScratchPostgresStore, pgTestUrl } from './testing.ts';

const url = pgTestUrl();
const skip = url ? false : PG_SKIP;

test('a completion stores its records with lz4 where the server has it', { skip }, async () => {
  const s = await openScratchPostgresStore(url!);
  try {
    const [{ lz4 }] = (await s.pool.query(`SELECT EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)) AS lz4`)).rows;
    if (!lz4) return; // a server built without lz4 keeps pglz (the migration says so and goes on)
    const a = await s.createAccount({ id: randomUUID(), name: 'a', balanceMicros: 1e9, creditLimitMicros: 0, currency: 'usd', pastDue: false,
      webhookSecret: 's', webhookUrl: null, ratePerSec: 20, burst: 40, createdAt: 1 });
    const id = randomUUID();
    await s.createRequest({ id, accountId: a.id, endpoint: '/maps/search', params: {}, queries: ['coffee'], webhook: null, product: 'p', unit: 'record',
      unitPriceMicros: 1_000, emptyCostsOne: true, dropDuplicates: false, taskId: null, maxAttempts: 3, createdAt: 1_000 });
    const [it] = await s.claimItems('w', 1, 60_000, 2_000);
    // Large enough to be compressed (past the 2 KB a row PostgreSQL keeps inline), as a map search's 50 KB.
    const records = JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ name: `Place ${i}`, rating: 4.5, address: `${i} Main Street` })));
    assert.equal((await s.completeItem({ itemId: it.id, owner: 'w', recordsJson: records, count: 200, now: 3_000 })).applied, true);
    const [r] = (await s.pool.query('SELECT pg_column_compression(records) AS method, records = $2 AS same FROM results WHERE request_id = $1', [id, records])).rows;
    assert.deepEqual(r, { method: 'lz4', same: true });
  } finally { await s.close(); }
});

test('a batch of requests is inserted on the connections that plan once, and read back as written', { skip }, async () => {
  const s = await openScratchPostgresStore(url!);
  try {
    const a = await s.createAccount({ id: randomUUID(), name: 'a', balanceMicros: 1e9, creditLimitMicros: 0, currency: 'usd', pastDue: false,
      webhookSecret: 's', webhookUrl: null, ratePerSec: 20, burst: 40, createdAt: 1 });
    const ids = Array.from({ length: 3 }, () => randomUUID());
    const made = await Promise.all(ids.map((id, i) => s.createRequest({ id, accountId: a.id, endpoint: '/maps/search', params: { n: i }, queries: ['a', 'b'],
      webhook: null, product: 'p', unit: 'record', unitPriceMicros: 1_000, emptyCostsOne: true, dropDuplicates: false, taskId: null, maxAttempts: 3, createdAt: 1_000 + i })));
    assert.deepEqual(made, [true, true, true]);
    // The generic connections ran it: their pool opened one (the main pool's statements never do).
    assert.ok(s.genericPool.totalCount >= 1);
    assert.deepEqual((await Promise.all(ids.map((id) => s.getRequest(id)))).map((r) => [r?.params, r?.queriesTotal]), [[{ n: 0 }, 2], [{ n: 1 }, 2], [{ n: 2 }, 2]]);
  } finally { await s.close(); }
});

test('an item\'s end and the synchronous waits\' poll read requests by key in the plan made once for any values, on tables never analyzed', { skip }, async () => {
  // A new database, or a server with autovacuum off, has no statistics: the plan a connection keeps
  // after five runs scanned every request for each completion (issue 37, session 16).
  const s = await openScratchPostgresStore(url!);
  const c = await s.pool.connect();
  try {
    await c.query('SET plan_cache_mode = force_generic_plan');
    const ends: [string, string, unknown[]][] = [
      ['complete', COMPLETE_ITEM, completeArgs({ itemId: 'r:0', owner: 'w', recordsJson: '[]', count: 0, now: 1 }, true)],
      // The usual item's (no keys, no enrichments, no checkpoint: complete-item.ts completeItemFor).
      ['usual', completeItemFor({}, false), completeArgs({ itemId: 'r:0', owner: 'w', recordsJson: '[]', count: 0, now: 1 }, true)],
      ['fail', FAIL_ITEM, ['r:0', 'w', 'e', 1, true]],
      ['ended', ENDED_REQUESTS, [['r', 's']]],
    ];
    for (const [name, text, values] of ends) {
      await c.query({ name, text, values });
      const literal = (v: unknown) => (v === null ? 'NULL' : Array.isArray(v) ? `'{${v.join(',')}}'` : typeof v === 'string' ? `'${v}'` : String(v));
      const plan = (await c.query(`EXPLAIN EXECUTE ${name}(${values.map(literal).join(', ')})`)).rows.map((r) => r['QUERY PLAN']).join('\n');
      assert.doesNotMatch(plan, /Seq Scan on requests/, `${name}: ${plan}`);
      assert.match(plan, /Index Scan using requests_pkey on requests r\b/, name);
    }
  } finally {
    c.release();
    await s.close();
  }
});

test('a batch\'s credit check reads each request\'s account by key in the plan made once for any values, however many accounts', { skip }, async () => {
  // As EXISTS the plan kept hashed every account at each insert (issue 37, session 18).
  const s = await openScratchPostgresStore(url!);
  const c = await s.pool.connect();
  try {
    await c.query(`INSERT INTO accounts (id, name, balance_micros, credit_limit_micros, currency, past_due, webhook_secret, rate_per_sec, burst, created_at)
                   SELECT 'a' || i, 'a', 1000000, 0, 'usd', false, 's', 20, 40, 1 FROM generate_series(1, 2000) AS s(i)`);
    await c.query('SET plan_cache_mode = force_generic_plan');
    await c.query(`PREPARE ins AS ${INSERT_REQUESTS}`);
    const plan = (await c.query(`EXPLAIN EXECUTE ins(${Array(22).fill("'{}'").join(', ')}, 'w', 2, 1)`)).rows.map((r) => r['QUERY PLAN']).join('\n');
    assert.doesNotMatch(plan, /Seq Scan on accounts/, plan);
    // The lease's test for an item queued and due (RequestStore.leaseAtInsert) reads the queued items' index.
    assert.doesNotMatch(plan, /Seq Scan on work_items/, plan);
    assert.match(plan, /using work_items_queued on work_items d\b/, plan);
    assert.match(plan, /Index Scan using accounts_pkey on accounts a\b/, plan);
  } finally {
    c.release();
    await s.close();
  }
});
