/**
 * The fair claim's head look-up on PostgreSQL (issue 39): each request's first queued item is an
 * index seek whatever the backlog. Without migration 181's index the planner read it by a sequential
 * scan or through the queued items by due time, passing every done or queued item before it (1.45 s
 * at 1 M queued on one plan). Asserted on the plan, not on a time.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openScratchPostgresStore, pgTestUrl, PG_SKIP } from './testing.ts';
import { CLAIM, FAIR_HEADS } from './items.ts';

const url = pgTestUrl();

test('the fair claim reads each account\'s head through the queued-by-request index, past a backlog of done and queued items', { skip: url ? false : PG_SKIP, timeout: 120_000 }, async () => {
  const store = await openScratchPostgresStore(url!);
  try {
    const c = await store.pool.connect();
    try {
      // 20 requests of 5,000 items (one account each: the heads are one per account), one after another, the first
      // fifth of each done: the shape on which the planner chose a scan.
      await c.query(`INSERT INTO requests (id, account_id, endpoint, params, status, queries_total, product, unit, unit_price_micros, empty_costs_one, drop_duplicates, created_at)
                     SELECT 'req-' || lpad(i::text, 4, '0'), 'a' || i, '/maps/search', '{}', 'Pending', 5000, 'p', 'place', 0, false, false, 1000 + i FROM generate_series(0, 19) AS s(i)`);
      await c.query(`INSERT INTO work_items (id, request_id, query_index, query, state, max_attempts, run_after)
                     SELECT r.id || ':' || i, r.id, i, 'q', CASE WHEN i < 1000 THEN 'done' ELSE 'queued' END, 1, 0
                     FROM requests r CROSS JOIN LATERAL generate_series(0, 4999) AS s(i) ORDER BY r.id, i`);
      await c.query('ANALYZE');
      const plan = (await c.query(`EXPLAIN ${FAIR_HEADS.replace('$1', String(Date.now()))}`)).rows.map((r) => r['QUERY PLAN'] as string).join('\n');
      assert.match(plan, /Index Scan using work_items_queued_by_request/, plan);
      const heads = (await c.query(FAIR_HEADS, [Date.now()])).rows;
      assert.equal(heads.length, 20);
      assert.ok(heads.every((h) => /:1000$/.test(h.id)), 'each head is its request\'s first queued item');
      assert.deepEqual(heads.map((h) => h.account_id), Array.from({ length: 20 }, (_, i) => `a${i}`), 'in the order the requests were made');
    } finally { c.release(); }
  } finally { await store.close(); }
});

test('the fair claim walks the accounts with unfinished requests by index scans, which mark the entries of ended ones for later claims to skip', { skip: url ? false : PG_SKIP }, async () => {
  // A bitmap scan never marks them: with no VACUUM between, each claim read every request that had
  // ended since (issue 37, session 16). Asserted on the plan kept for any values, tables never analyzed.
  const store = await openScratchPostgresStore(url!);
  const c = await store.pool.connect();
  try {
    // 5,000 requests, all but the last ended, written as a completion writes them (a second version).
    await c.query(`INSERT INTO requests (id, account_id, endpoint, params, status, queries_total, product, unit, unit_price_micros, empty_costs_one, drop_duplicates, created_at)
                   SELECT 'req-' || i, 'a', '/maps/search', '{}', 'Pending', 1, 'p', 'place', 0, false, false, 1000 + i FROM generate_series(0, 4999) AS s(i)`);
    await c.query(`UPDATE requests SET status = 'Success', finished_at = 9000 WHERE id <> 'req-4999'`);
    await c.query('SET plan_cache_mode = force_generic_plan');
    await c.query({ name: 'heads', text: FAIR_HEADS, values: [1] });
    const plan = (await c.query('EXPLAIN EXECUTE heads(1)')).rows.map((r) => r['QUERY PLAN'] as string).join('\n');
    assert.match(plan, /Index (Only )?Scan using requests_unfinished on requests/, plan);
    assert.doesNotMatch(plan, /Bitmap Heap Scan on requests|Seq Scan on requests/, plan);
    assert.deepEqual((await c.query('EXECUTE heads(1)')).rows, [], 'the one unfinished request has no queued item');
  } finally {
    c.release();
    await store.close();
  }
});

test('the claim planned once locks its head by key and counts no leased items when it takes every head, past the entries ended items left', { skip: url ? false : PG_SKIP }, async () => {
  // With no VACUUM, an item queued, leased and done leaves an entry in the queued and in the leased
  // index; the plan kept for any values read both by bitmap scans, visiting each such entry's page at
  // every claim (issue 37, session 18: 400 of a claim's 634 pages after 10,000 queries).
  const store = await openScratchPostgresStore(url!);
  const c = await store.pool.connect();
  try {
    const now = 1_000_000;
    await c.query(`INSERT INTO accounts (id, name, balance_micros, credit_limit_micros, currency, past_due, webhook_secret, rate_per_sec, burst, created_at)
                   VALUES ('a', 'a', 1000000000, 0, 'usd', false, 's', 20, 40, 1)`);
    await c.query(`INSERT INTO requests (id, account_id, endpoint, params, status, queries_total, product, unit, unit_price_micros, empty_costs_one, drop_duplicates, created_at)
                   SELECT 'req-' || lpad(i::text, 4, '0'), 'a', '/maps/search', '{}', 'Pending', 1, 'p', 'place', 0, false, false, 1000 + i FROM generate_series(0, 2002) AS s(i)`);
    await c.query(`INSERT INTO work_items (id, request_id, query_index, query, max_attempts, run_after) SELECT id || ':0', id, 0, 'q', 3, 0 FROM requests`);
    await c.query(`UPDATE work_items SET state = 'leased', lease_owner = 'w', lease_until = $1 WHERE request_id < 'req-2002'`, [now + 60_000]);
    await c.query(`UPDATE work_items SET state = 'done', lease_owner = NULL, lease_until = NULL WHERE request_id < 'req-2000'`);
    await c.query(`UPDATE requests SET status = 'Success', finished_at = 9000 WHERE id < 'req-2000'`);
    await c.query('SET plan_cache_mode = force_generic_plan');
    await c.query(`PREPARE claim AS ${CLAIM}`);
    await c.query('BEGIN');
    const plan = (await c.query(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) EXECUTE claim(${now}, 1, 'w2', ${now + 60_000}, '{}')`)).rows.map((r) => r['QUERY PLAN'] as string);
    await c.query('ROLLBACK');
    const all = plan.join('\n');
    assert.match(all, /Update on work_items w \(actual rows=1 /, all);
    assert.match(all, /Index Scan using work_items_pkey on work_items w_\d+ \(actual rows=1 /, all);
    const read = plan.filter((l) => /on work_items_(queued|leased)\b/.test(l) && !/never executed/.test(l));
    assert.deepEqual(read, [], all);
  } finally {
    c.release();
    await store.close();
  }
});
