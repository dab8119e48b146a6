/**
 * Scale-out with real processes on loopback: API and worker processes share one PostgreSQL schema and
 * one Redis key prefix (fresh per test, removed afterwards).
 *
 * - the CLI's process kinds: `trawl migrate`, `trawl serve --no-workers`, `trawl worker`, graceful SIGTERM;
 * - two API processes and three workers; `kill -9` of one worker and SIGTERM of another in the middle
 *   of a 200-query request: every query ends exactly once, results complete, billing exact;
 * - PostgreSQL stopped for a few seconds (a private server, never the shared one): 503 JSON answers
 *   meanwhile, /ready 503, /health 200; after the restart the run completes with nothing lost;
 * - Redis killed and restarted empty (a private server): the worker reconnects and finishes the work,
 *   including a request submitted while Redis was away.
 *
 * Needs TEST_DATABASE_URL and TEST_REDIS_URL; the outage tests also `initdb`/`pg_ctl` or `redis-server`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { openCluster, getJson, sleep, stopTrawl, waitFor, type Cluster, type TrawlProc } from './support/cluster.ts';
import { parseMetrics, pick } from './support/prom.ts';
import { deleteKeys, privateRedisUnavailable, startPrivateRedis } from '../src/engine/backends/redis-testing.ts';
import { freePort, privatePostgresUnavailable, startPrivatePostgres } from '../src/store/postgres/private-server.ts';

const DB = process.env.TEST_DATABASE_URL;
const REDIS = process.env.TEST_REDIS_URL;
const SERVICES_SKIP = !DB || !REDIS
  ? 'scale-out tests need PostgreSQL and Redis: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test) and TEST_REDIS_URL (e.g. redis://127.0.0.1:6379)'
  : false;
const PG_PRIVATE_SKIP = SERVICES_SKIP || (privatePostgresUnavailable() ? `no private PostgreSQL server possible: ${privatePostgresUnavailable()}` : false);
const REDIS_PRIVATE_SKIP = SERVICES_SKIP || (privateRedisUnavailable() ? `no private Redis server possible: ${privateRedisUnavailable()}` : false);

/** Short leases so a killed worker's items come back within seconds. */
const FAST = { LEASE_MS: '2000', CONCURRENCY: '4', RETRY_BASE_MS: '50' };

const queries = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `sleep=50;n=2;${tag}=${i}`);
const qs = (qq: string[]) => qq.map((q) => `query=${encodeURIComponent(q)}`).join('&');

async function submit(api: TrawlProc, qq: string[]): Promise<string> {
  const r = await getJson(api, `/maps/search?${qs(qq)}`);
  assert.equal(r.status, 202, `submit answered ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body.id as string;
}

async function progress(api: TrawlProc, id: string): Promise<number> {
  const r = await getJson(api, `/requests/${id}`);
  return r.status === 200 ? Number(r.body.progress?.queries_done ?? (r.body.status === 'Success' ? Infinity : 0)) : 0;
}

async function finished(api: TrawlProc, id: string, timeoutMs = 60_000): Promise<any> {
  return waitFor(async () => {
    const r = await getJson(api, `/requests/${id}`);
    return r.status === 200 && r.body.status !== 'Pending' && r.body;
  }, `request ${id} to end`, timeoutMs, 100);
}

/** Every query has its 2 records, in order. */
function assertComplete(body: any, qq: string[]): void {
  assert.equal(body.status, 'Success');
  assert.equal(body.data.length, qq.length);
  for (let i = 0; i < qq.length; i++) {
    assert.equal(body.data[i].length, 2, `query ${i} has its 2 records`);
    assert.equal(body.data[i][0].query, qq[i], `query ${i} in order`);
  }
}

/** Exactly once, read from the store: one usage line per item, request usage and the balance moved by the ledger. */
async function assertBilledOnce(c: Cluster, ids: string[], startBalance: number): Promise<void> {
  let amount = 0;
  for (const id of ids) {
    const [req] = await c.sql('SELECT queries_total, queries_done, usage, unit_price_micros FROM requests WHERE id = $1', [id]);
    const n = Number(req.queries_total);
    assert.equal(Number(req.queries_done), n, 'every query counted once');
    assert.equal(Number(req.usage), 2 * n, 'request usage is 2 per query, once');
    const items = await c.sql('SELECT state, COUNT(*)::int AS n FROM work_items WHERE request_id = $1 GROUP BY state', [id]);
    assert.deepEqual(items, [{ state: 'done', n }], 'every item done');
    const [results] = await c.sql('SELECT COUNT(*)::int AS n, SUM(count)::int AS records FROM results WHERE request_id = $1', [id]);
    assert.deepEqual(results, { n, records: 2 * n }, 'one result row per query');
    const [ledger] = await c.sql(`SELECT COUNT(*)::int AS n, COUNT(DISTINCT item_key)::int AS keys, SUM(quantity)::int AS q, SUM(amount_micros) AS a
                                  FROM usage WHERE request_id = $1`, [id]);
    assert.equal(ledger.n, n, 'one usage line per work item');
    assert.equal(ledger.keys, n);
    assert.equal(ledger.q, 2 * n);
    assert.equal(Number(ledger.a), 2 * n * Number(req.unit_price_micros), 'ledger amount = units x price');
    amount += Number(ledger.a);
  }
  const [acct] = await c.sql('SELECT balance_micros FROM accounts');
  assert.equal(Number(acct.balance_micros), startBalance - amount, 'balance moved by exactly the ledger');
}

function runCli(args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, ['bin/trawl.js', ...args], { env: { ...process.env, LOG_LEVEL: 'info', ...env }, encoding: 'utf8', timeout: 60_000 });
}

/** A CLI process that runs until stopped; `lines` collects its stdout. */
function startCli(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ['bin/trawl.js', ...args], { env: { ...process.env, LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  createInterface({ input: child.stdout! }).on('line', (l) => lines.push(l));
  child.stderr!.resume();
  const exited = new Promise<number | string>((r) => child.once('exit', (code, sig) => r(code ?? sig ?? 'unknown')));
  const logs = () => lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
  return { child, lines, exited, logs };
}

test('CLI processes: trawl migrate, serve --no-workers, worker; SIGTERM exits cleanly; JSON logs with request ids, no secrets', { skip: SERVICES_SKIP, timeout: 120_000 }, async () => {
  const schema = `trawl_cli_${randomBytes(5).toString('hex')}`;
  const prefix = `trawl_cli_${randomBytes(5).toString('hex')}`;
  const env = { DATABASE_URL: DB!, DATABASE_SCHEMA: schema, REDIS_URL: REDIS!, REDIS_PREFIX: prefix, PORT: '0', DATA_DIR: '/nonexistent-trawl-dir' };
  const pool = new pg.Pool({ connectionString: DB, max: 1 });
  const procs: ReturnType<typeof startCli>[] = [];
  try {
    for (let i = 0; i < 2; i++) {
      const m = runCli(['migrate'], env);
      assert.equal(m.status, 0, m.stderr);
      assert.deepEqual(JSON.parse(m.stdout), { migrated: true }, 'migrate is repeatable');
    }
    const tables = (await pool.query('SELECT table_name FROM information_schema.tables WHERE table_schema = $1', [schema])).rows.map((r) => r.table_name);
    for (const t of ['accounts', 'requests', 'work_items', 'usage', 'schema_migrations']) assert.ok(tables.includes(t), `migrate created ${t}`);

    const metricsPort = await freePort();
    const api = startCli(['serve', '--no-workers'], env);
    const worker = startCli(['worker'], { ...env, METRICS_PORT: String(metricsPort) });
    procs.push(api, worker);
    const listening = await waitFor(async () => api.logs().find((l) => l.msg === 'trawl listening'), 'trawl listening', 45_000);
    assert.equal(listening.workers, false);
    const started = await waitFor(async () => worker.logs().find((l) => l.msg === 'trawl worker started'), 'trawl worker started', 45_000);
    assert.ok(!worker.lines.some((l) => /listening/.test(l)), 'the worker serves no API');
    assert.equal(started.metricsUrl, `http://127.0.0.1:${metricsPort}`);
    const wm = await fetch(`${started.metricsUrl}/metrics`);
    assert.equal(wm.status, 200);
    assert.match(await wm.text(), /^# TYPE trawl_source_errors_total counter/m, 'the worker exposes its own counters');
    assert.equal((await fetch(`${started.metricsUrl}/ready`)).status, 200);
    const noApi = await fetch(`${started.metricsUrl}/maps/search?query=x`);
    assert.equal(noApi.status, 404, 'the ops port serves no API');
    assert.equal((await noApi.json() as any).error, true);
    const key = /API key \(shown once, keep it\): (\S+)/.exec(api.lines.join('\n'))?.[1];
    assert.ok(key, 'the first start printed a key');

    const url = listening.url as string;
    assert.equal((await fetch(`${url}/health`)).status, 200);
    const ready = await fetch(`${url}/ready`);
    assert.equal(ready.status, 200);
    assert.deepEqual((await ready.json() as any).checks, { store: 'ok', queue: 'ok' });
    const bal = await fetch(`${url}/profile/balance?apiKey=${encodeURIComponent(key!)}`);
    assert.equal(bal.status, 200);
    const traced = bal.headers.get('x-trace-id');

    assert.equal(await Promise.race([(api.child.kill('SIGTERM'), api.exited), sleep(20_000).then(() => 'timeout')]), 0, 'serve exits 0 on SIGTERM');
    assert.equal(await Promise.race([(worker.child.kill('SIGTERM'), worker.exited), sleep(20_000).then(() => 'timeout')]), 0, 'worker exits 0 on SIGTERM');
    assert.ok(worker.logs().some((l) => l.msg === 'shutting down: finishing running items' && l.signal === 'SIGTERM'));

    const http = api.logs().filter((l) => l.msg === 'http');
    const line = http.find((l) => l.reqId === traced);
    assert.ok(line, 'the call is logged with the request id it answered in x-trace-id');
    assert.equal(line.status, 200);
    assert.match(line.url, /apiKey=\[redacted\]/);
    const logged = [...api.lines.filter((l) => l.startsWith('{')), ...worker.lines].join('\n');
    assert.ok(!logged.includes(key!), 'the key never reaches a log line');
    assert.ok(!logged.includes(key!.slice(-12)), 'not even its tail');
  } finally {
    for (const p of procs) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
    await pool.end();
    await deleteKeys(REDIS!, prefix).catch(() => {});
  }
});

test('2 API + 3 workers: kill -9 one worker and SIGTERM another mid-request; every query ends exactly once, billing exact', { skip: SERVICES_SKIP, timeout: 300_000 }, async (t) => {
  const c = await openCluster({ databaseUrl: DB!, redisUrl: REDIS!, env: FAST });
  const t0 = Date.now();
  const mark = (what: string) => t.diagnostic(`${((Date.now() - t0) / 1000).toFixed(1)} s: ${what}`);
  try {
    const api1 = await c.api(); // first: creates the account
    const [api2, w1, w2, w3] = await Promise.all([c.api(), c.worker(), c.worker(), c.worker()]);
    const [{ balance_micros: start }] = await c.sql('SELECT balance_micros FROM accounts');
    const qq = queries(200, 'i');
    const id = await submit(api1, qq);
    mark('processes up, request submitted');

    await waitFor(async () => (await progress(api2, id)) >= 30, '30 queries done', 60_000, 20);
    // Kill while it runs items: 3 of its 4 slots busy (each item takes 50 ms; the kill follows at once).
    const leasedBy = async (owner: string) => (await c.sql(`SELECT COUNT(*)::int AS n FROM work_items WHERE request_id = $1 AND state = 'leased' AND lease_owner = $2`, [id, owner]))[0].n as number;
    await waitFor(async () => (await leasedBy(w1.owner)) >= 3, 'the first worker running 3 items', 30_000, 5);
    w1.child.kill('SIGKILL');
    assert.equal(await w1.exited, 'SIGKILL');
    const heldByKilled = await leasedBy(w1.owner);
    mark('worker 1 killed');

    await waitFor(async () => (await progress(api2, id)) >= 90, '90 queries done', 60_000, 20);
    assert.equal(await stopTrawl(w2, 'SIGTERM', 15_000), 0, 'SIGTERM: exit 0 after finishing running items');
    const [{ n: heldByStopped }] = await c.sql(`SELECT COUNT(*)::int AS n FROM work_items WHERE state = 'leased' AND lease_owner = $1`, [w2.owner]);
    assert.equal(heldByStopped, 0, 'a stopped worker holds no lease: finished or handed back');
    mark('worker 2 stopped');

    const body = await finished(api2, id, 90_000);
    mark('request ended');
    assertComplete(body, qq);
    assert.ok(w3.child.exitCode === null, 'the third worker is still running');
    await assertBilledOnce(c, [id], Number(start));
    // The kill hit running work (each worker runs 4 items at once with 170 waiting), and those items ran again.
    assert.ok(heldByKilled > 0, 'the killed worker held leases when it died');
    const [{ n: rerun }] = await c.sql('SELECT COUNT(*)::int AS n FROM work_items WHERE request_id = $1 AND attempts > 1', [id]);
    assert.ok(rerun >= heldByKilled, `items the killed worker held ran again (${rerun} re-run, ${heldByKilled} held)`);
    t.diagnostic(`killed worker held ${heldByKilled} leases; ${rerun} items ran more than once; billed once each`);

    // Any API process reports the shared state: items by state from the store, depth from Redis.
    const m = await waitFor(async () => {
      const mm = parseMetrics(await (await fetch(`${api1.url}/metrics`)).text());
      return pick(mm, 'trawl_queue_depth') === 0 && mm;
    }, 'queue depth 0', 15_000, 200);
    assert.equal(pick(m, 'trawl_work_items', { state: 'done' }), 200);
    assert.equal(pick(m, 'trawl_work_items', { state: 'leased' }), 0);
    assert.equal(pick(m, 'trawl_http_requests_total', { route: '/maps/search', status: '202' }), 1, 'api1 took the submit');
    // Worker counters live in the workers: the one that ended the request counted its billed units.
    const wm = parseMetrics(await (await fetch(`${w3.metricsUrl}/metrics`)).text());
    assert.equal(pick(wm, 'trawl_billed_units_total', { unit: 'place' }), 400, 'billed units: 2 per query, once');
    assert.ok((pick(wm, 'trawl_work_items_run_total', { outcome: 'done' }) ?? 0) > 0);
  } finally {
    await c.close();
  }
});

test('PostgreSQL stopped for a few seconds: 503 JSON answers, /ready 503, /health 200; the run then completes with nothing lost', { skip: PG_PRIVATE_SKIP, timeout: 150_000 }, async () => {
  const server = await startPrivatePostgres();
  assert.ok(server, 'private PostgreSQL started');
  const c = await openCluster({ databaseUrl: server.url, redisUrl: REDIS!, env: FAST });
  try {
    const api = await c.api();
    await Promise.all([c.worker(), c.worker()]);
    const [{ balance_micros: start }] = await c.sql('SELECT balance_micros FROM accounts');
    const qq = queries(100, 'p');
    const id = await submit(api, qq);
    await waitFor(async () => (await progress(api, id)) >= 20, '20 queries done', 60_000, 20);

    await server.stop('fast');
    const downSince = Date.now();
    const expect503 = (r: { status: number; body: any; headers: Headers }, what: string) => {
      assert.equal(r.status, 503, `${what} answers 503 while the store is down (got ${r.status} ${JSON.stringify(r.body).slice(0, 200)})`);
      assert.match(r.headers.get('content-type') ?? '', /application\/json/);
      assert.equal(r.body.error, true);
      assert.match(r.body.errorMessage, /^503 Service Unavailable: /);
    };
    expect503(await getJson(api, `/requests/${id}`), 'GET /requests/{id}');
    expect503(await getJson(api, `/maps/search?${qs(['n=1'])}`), 'submit');
    expect503(await getJson(api, '/requests'), 'GET /requests');
    const ready = await getJson(api, '/ready');
    expect503(ready, '/ready');
    assert.match(ready.body.checks.store, /^unavailable/);
    assert.equal((await getJson(api, '/health')).status, 200, '/health stays 200: the process is alive');
    assert.equal((await getJson(api, '/metrics')).status, 200, '/metrics still answers');
    await sleep(Math.max(0, 4_000 - (Date.now() - downSince)));
    await server.start();

    const body = await finished(api, id, 90_000);
    assertComplete(body, qq);
    assert.equal((await getJson(api, '/ready')).status, 200, '/ready is back');
    const after = queries(10, 'after');
    const idAfter = await submit(api, after);
    assertComplete(await finished(api, idAfter), after);
    await assertBilledOnce(c, [id, idAfter], Number(start));
  } finally {
    await c.close();
    await server.destroy();
  }
});

test('Redis killed and restarted empty: the worker reconnects by itself and finishes everything, billed once', { skip: REDIS_PRIVATE_SKIP, timeout: 150_000 }, async () => {
  const redis = await startPrivateRedis();
  const c = await openCluster({ databaseUrl: DB!, redisUrl: redis.url, env: FAST });
  try {
    const api = await c.api();
    const worker = await c.worker();
    const [{ balance_micros: start }] = await c.sql('SELECT balance_micros FROM accounts');
    const qq = queries(60, 'r');
    const id = await submit(api, qq);
    await waitFor(async () => (await progress(api, id)) >= 10, '10 queries done', 60_000, 20);

    await redis.kill();
    // Accepted while Redis is away: the store has it, the announcement is dropped (bounded wait) and
    // the sweeper announces it once Redis is back.
    const t0 = Date.now();
    const during = queries(5, 'during');
    const id2 = await submit(api, during);
    assert.ok(Date.now() - t0 < 9_000, 'a submit does not hang while Redis is away');
    const doneWhileDown = await progress(api, id);
    await sleep(1_500);
    await redis.start();

    const body = await finished(api, id, 90_000);
    assertComplete(body, qq);
    assert.ok(doneWhileDown < qq.length, 'part of the work was left when Redis went away');
    assertComplete(await finished(api, id2, 60_000), during);
    assert.equal(worker.child.exitCode, null, 'the same worker process did the work: it reconnected');
    await assertBilledOnce(c, [id, id2], Number(start));
  } finally {
    await c.close();
    await redis.destroy();
  }
});
