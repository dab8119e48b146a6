/**
 * Monitors across real processes (issue 29): two API processes and two worker processes on one
 * PostgreSQL schema. Each due run starts once whoever sees it first; a worker killed with -9 while runs
 * come due takes nothing with it; a claim whose owner died before its request existed is taken over
 * once and started with the id chosen at the claim.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { openCluster, waitFor } from './support/cluster.ts';

const DB = process.env.TEST_DATABASE_URL;
const REDIS = process.env.TEST_REDIS_URL;
const SKIP = !DB || !REDIS ? 'needs PostgreSQL and Redis: set TEST_DATABASE_URL and TEST_REDIS_URL' : false;

test('2 API + 2 workers: every due run starts once, a kill -9 loses none, a dead claim is taken over once', { skip: SKIP, timeout: 180_000 }, async (t) => {
  const c = await openCluster({ databaseUrl: DB!, redisUrl: REDIS!, env: { LEASE_MS: '2000', CONCURRENCY: '4', RETRY_BASE_MS: '50', MONITOR_TICK_MS: '50' } });
  try {
    const api1 = await c.api();
    const [, w1] = await Promise.all([c.api(), c.worker(), c.worker()]);
    const res = await fetch(`${api1.url}/monitors`, {
      method: 'POST', headers: { 'x-api-key': api1.key, 'content-type': 'application/json' },
      body: JSON.stringify({ endpoint: '/maps/search', queries: ['sleep=20;n=3', 'n=2'], schedule: { every_s: 3600 }, compare: { identity: ['i'], fields: ['rating'] } }),
    });
    const m = await res.json() as { id: string };
    assert.equal(res.status, 200, JSON.stringify(m));
    const done = async () => (await c.sql<{ n: number }>("SELECT COUNT(*)::int AS n FROM monitor_runs WHERE monitor_id = $1 AND status = 'done'", [m.id]))[0].n;
    await waitFor(async () => (await done()) === 1 || undefined, 'the baseline run', 30_000);
    // Due times one after another, as a schedule would make them; a worker dies with -9 in the middle.
    for (let k = 0; k < 8; k++) {
      await c.sql('UPDATE monitors SET next_run_at = $2 WHERE id = $1', [m.id, Date.now()]);
      if (k === 3) { w1.child.kill('SIGKILL'); t.diagnostic('worker 1 killed'); }
      // A claim the killed worker made but never started is stale after 30 s: taken over then.
      await waitFor(async () => (await done()) === k + 2 || undefined, `run ${k + 2}`, 60_000);
    }
    // A claimer that died between its claim and its request: the run is started once, with its own id.
    const orphanRequest = randomUUID();
    await c.sql(`INSERT INTO monitor_runs (id, monitor_id, account_id, due_at, request_id, status, reason, counts, claimed_at, finished_at, baseline)
      SELECT $1, id, account_id, 1, $2, 'claimed', NULL, '{"new":0,"gone":0,"changed":0,"new_reviews":0,"records":0}', $3, NULL, 0 FROM monitors WHERE id = $4`,
    [`${m.id}-orphan`, orphanRequest, Date.now() - 60_000, m.id]);
    await waitFor(async () => (await done()) === 10 || undefined, 'the orphaned claim taken over', 60_000);
    const runs = await c.sql<{ request_id: string; status: string; due_at: number }>('SELECT request_id, status, due_at FROM monitor_runs WHERE monitor_id = $1', [m.id]);
    assert.equal(runs.length, 10);
    assert.ok(runs.every((r) => r.status === 'done'), JSON.stringify(runs));
    assert.ok(runs.some((r) => r.request_id === orphanRequest));
    const requests = await c.sql<{ id: string; status: string }>("SELECT id, status FROM requests WHERE endpoint = '/maps/search'");
    assert.equal(requests.length, 10, 'one request per run, none twice');
    assert.deepEqual(new Set(requests.map((r) => r.id)), new Set(runs.map((r) => r.request_id)));
    assert.ok(requests.every((r) => r.status === 'Success'));
    const [{ n: items }] = await c.sql<{ n: number }>('SELECT COUNT(*)::int AS n FROM work_items');
    assert.equal(items, 20, 'two queries a run, each run once');
  } finally { await c.close(); }
});
