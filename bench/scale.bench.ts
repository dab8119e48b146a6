/**
 * Scale-out benchmarks (issue: scale out), real processes on loopback:
 *  A. throughput with worker processes: a latency-bound source (the test adapter waits 50 ms per
 *     query), one API process and 1 or 3 worker processes of equal concurrency sharing PostgreSQL and
 *     Redis; queries/s from the first request's creation to the last one's end (store timestamps).
 *     Baseline: 1 worker in the same run. Target: 3 workers >= 2.5x.
 *  B. API-level store comparison: HTTP submit of 1-query requests and HTTP GET /requests/{id} of a
 *     finished 1-query result (10 place-like records), same harness (API-only serve-test process,
 *     embedded queue, autocannon with 50 connections) on the SQLite store and the PostgreSQL store,
 *     interleaved. Target: PostgreSQL within 2x of SQLite.
 * Run: node bin/run-ts.js bench/scale.bench.ts   (REPS=3, DURATION=3 s, QUERIES=720, PER_WORKER=8,
 *      PARTS=A,B; PostgreSQL and Redis from TEST_DATABASE_URL / TEST_REDIS_URL, else the CI defaults)
 */
import autocannon from 'autocannon';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';
import { openCluster, sleep, startTrawl, stopTrawl, type TrawlProc } from '../test/support/cluster.ts';
import { openSqliteStore } from '../src/store/sqlite/store.ts';
import { PostgresStore } from '../src/store/postgres/store.ts';
import type { Store } from '../src/store/contract.ts';
import { median, table, writeSection } from './lib.ts';

const REPS = Number(process.env.REPS ?? 3);
const DURATION = Number(process.env.DURATION ?? 3);
const QUERIES = Number(process.env.QUERIES ?? 720);
const PER_WORKER = Number(process.env.PER_WORKER ?? 8);
const PARTS = (process.env.PARTS ?? 'A,B').split(',');
const DB = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function reachable(): Promise<string | null> {
  const c = new pg.Client({ connectionString: DB, connectionTimeoutMillis: 2_000 });
  try { await c.connect(); await c.query('SELECT 1'); } catch (e) { return `PostgreSQL at ${DB.replace(/\/\/[^@/]*@/, '//***@')} does not answer: ${(e as Error).message}`; } finally { await c.end().catch(() => {}); }
  const r = new Redis(REDIS, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 2_000, retryStrategy: () => null });
  r.on('error', () => {});
  try { await r.connect(); await r.ping(); } catch (e) { return `Redis at ${REDIS} does not answer: ${(e as Error).message}`; } finally { r.disconnect(); }
  return null;
}

// ---------------------------------------------------------------- A. worker processes
async function partA(): Promise<{ md: string; raw: Record<string, number[]>; ratio: number }> {
  const c = await openCluster({ databaseUrl: DB, redisUrl: REDIS, env: { CONCURRENCY: String(PER_WORKER) } });
  const raw: Record<string, number[]> = { '1': [], '3': [] };
  try {
    const api = await c.api();
    const run = async (label: string) => {
      const perRequest = 120;
      const ids = await Promise.all(Array.from({ length: Math.ceil(QUERIES / perRequest) }, async (_, r) => {
        const qs = Array.from({ length: perRequest }, (_, i) => `query=${encodeURIComponent(`sleep=50;n=1;${label}=${r * perRequest + i}`)}`).join('&');
        const res = await fetch(`${api.url}/maps/search?${qs}`, { headers: { 'x-api-key': api.key } });
        if (res.status !== 202) throw new Error(`submit answered ${res.status}`);
        return (await res.json() as { id: string }).id;
      }));
      const end = Date.now() + 120_000;
      for (;;) {
        const [row] = await c.sql(`SELECT COUNT(*) FILTER (WHERE status = 'Pending')::int AS pending, MIN(created_at) AS t0, MAX(finished_at) AS t1, SUM(queries_done)::int AS done
                                   FROM requests WHERE id = ANY($1)`, [ids]);
        if (row.pending === 0) {
          if (row.done !== ids.length * perRequest) throw new Error(`only ${row.done} queries done`);
          return row.done / ((Number(row.t1) - Number(row.t0)) / 1000);
        }
        if (Date.now() > end) throw new Error(`run ${label} did not finish in 120 s`);
        await sleep(50);
      }
    };
    for (let rep = 1; rep <= REPS; rep++) {
      for (const n of [1, 3]) {
        const workers: TrawlProc[] = await Promise.all(Array.from({ length: n }, () => c.worker()));
        await run(`warm${rep}w${n}`.slice(0, 12)); // connections, JIT, BullMQ scripts
        raw[String(n)].push(await run(`r${rep}w${n}`));
        await Promise.all(workers.map((w) => stopTrawl(w)));
        console.error(`A rep ${rep}: ${n} worker(s) ${raw[String(n)].at(-1)!.toFixed(1)} queries/s`);
      }
    }
  } finally {
    await c.close();
  }
  const one = median(raw['1']);
  const three = median(raw['3']);
  const ideal = PER_WORKER / 0.05;
  const md = table(['worker processes', `concurrency each`, 'queries/s (median)', 'vs 1 worker', 'ideal (concurrency / 50 ms)', 'target'], [
    ['1 (baseline)', PER_WORKER, one.toFixed(0), '1.00x', ideal.toFixed(0), ''],
    ['3', PER_WORKER, three.toFixed(0), `**${(three / one).toFixed(2)}x**`, (3 * ideal).toFixed(0), `>= 2.5x: ${three / one >= 2.5 ? 'met' : '**not met**'}`],
  ]);
  return { md, raw, ratio: three / one };
}

// ---------------------------------------------------------------- B. stores at the API level
const record = (i: number) => ({ query: 'q', name: `Place ${i}`, place_id: `ChIJ${i}`, full_address: '12 Example Street, Athens 105 57, Greece', latitude: 37.97, longitude: 23.72, rating: 4.5, reviews: 120 + i, phone: '+30 21 0000 0000', site: 'https://example.com/', category: 'Coffee shop', working_hours: { Monday: '8AM-8PM' } });

/** A finished 1-query request with 10 records, owned by the API process's account. */
async function finishedRequest(store: Store): Promise<string> {
  const account = (await store.listAccounts())[0];
  const id = `bench-${randomBytes(4).toString('hex')}`;
  await store.createRequest({ id, accountId: account.id, endpoint: '/maps/search', params: {}, queries: ['q'], webhook: null, product: 'engine_maps_search', unit: 'place', unitPriceMicros: 0, emptyCostsOne: false, dropDuplicates: false, taskId: null, maxAttempts: 1, createdAt: Date.now() });
  const [item] = await store.claimItems('bench', 1, 60_000, Date.now(), [`${id}:0`]);
  if (!item) throw new Error('could not claim the bench item');
  const recs = Array.from({ length: 10 }, (_, i) => record(i));
  await store.completeItem({ itemId: item.id, owner: 'bench', recordsJson: JSON.stringify(recs), count: recs.length, now: Date.now() });
  return id;
}

/** CPU time (user + system) of a process in ms, from /proc (Linux); NaN elsewhere. */
function cpuMs(pid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) * 10; // clock ticks of 10 ms (USER_HZ 100)
  } catch { return NaN; }
}

/** Requests/s, and the API process's CPU time per request in microseconds. */
async function cannon(url: string, key: string, pid: number) {
  const c0 = cpuMs(pid);
  const r = await autocannon({ url, connections: 50, pipelining: 1, duration: DURATION, headers: { 'x-api-key': key } });
  if (r.non2xx || r.errors) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { rps: r.requests.average, cpuUs: ((cpuMs(pid) - c0) * 1000) / r.requests.total };
}

async function partB(): Promise<{ md: string; raw: Record<string, number[]> }> {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-scale-bench-'));
  const schema = `trawl_bench_${randomBytes(5).toString('hex')}`;
  const common = { PORT: '0', NO_WORKERS: '1', QUEUE: 'embedded', REDIS_URL: '', DATABASE_URL: '', LOG_LEVEL: 'silent' };
  const raw: Record<string, number[]> = { 'sqlite submit': [], 'postgres submit': [], 'sqlite get': [], 'postgres get': [] };
  const cpu: Record<string, number[]> = {};
  let sqlite: TrawlProc | null = null;
  let postgres: TrawlProc | null = null;
  const pgStore = new PostgresStore(DB, { schema });
  try {
    [sqlite, postgres] = await Promise.all([
      startTrawl({ ...common, DATA_DIR: join(dir, 'sqlite') }),
      startTrawl({ ...common, DATA_DIR: join(dir, 'pg'), DATABASE_URL: DB, DATABASE_SCHEMA: schema, DATABASE_POOL_SIZE: '16' }),
    ]);
    const sqliteStore = await openSqliteStore(join(dir, 'sqlite', 'trawl.db'));
    const ids = { sqlite: await finishedRequest(sqliteStore), postgres: await finishedRequest(pgStore) };
    await sqliteStore.close();
    const procs = { sqlite, postgres };
    for (let rep = 1; rep <= REPS; rep++) {
      // Alternate which store goes first, so a drift in machine load hits both alike.
      const order = rep % 2 ? (['sqlite', 'postgres'] as const) : (['postgres', 'sqlite'] as const);
      for (const [op, path] of [['submit', '/maps/search?query=n%3D1'], ['get', '']] as const) {
        for (const kind of order) {
          const r = await cannon(`${procs[kind].url}${path || `/requests/${ids[kind]}`}`, procs[kind].key, procs[kind].pid);
          raw[`${kind} ${op}`].push(r.rps);
          (cpu[`${kind} ${op}`] ??= []).push(r.cpuUs);
        }
      }
      console.error(`B rep ${rep}: ${Object.entries(raw).map(([k, v]) => `${k} ${v.at(-1)!.toFixed(0)}`).join(', ')}`);
    }
  } finally {
    for (const p of [sqlite, postgres]) if (p) await stopTrawl(p);
    await pgStore.pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
    await pgStore.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const m = (k: string) => median(raw[k]);
  const row = (what: string, op: string) => {
    const r = m(`sqlite ${op}`) / m(`postgres ${op}`);
    const us = (k: string) => median(cpu[k] ?? []).toFixed(0);
    return [what, m(`sqlite ${op}`).toFixed(0), m(`postgres ${op}`).toFixed(0), `**${r.toFixed(2)}x**`, `${us(`sqlite ${op}`)} / ${us(`postgres ${op}`)}`, `within 2x: ${r <= 2 ? 'met' : '**not met**'}`];
  };
  const md = table(['HTTP operation (50 connections)', 'SQLite store req/s', 'PostgreSQL store req/s', 'SQLite / PostgreSQL', 'API process CPU per call, us (SQLite / PostgreSQL)', 'target'], [
    row('submit: GET /maps/search, 1 query, async (API only)', 'submit'),
    row('result read: GET /requests/{id}, finished, 1 query x 10 records', 'get'),
  ]);
  return { md, raw: { ...raw, ...Object.fromEntries(Object.entries(cpu).map(([k, v]) => [`${k} cpu us`, v])) } };
}

async function main() {
  const why = await reachable();
  if (why) {
    console.log(`scale bench skipped: ${why}. Set TEST_DATABASE_URL and TEST_REDIS_URL.`);
    return;
  }
  const t0 = Date.now();
  const a = PARTS.includes('A') ? await partA() : null;
  const b = PARTS.includes('B') ? await partB() : null;
  const rounded = (r: Record<string, number[]>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v.map((x) => Math.round(x))]));
  const text = [
    '# Scale-out benchmark',
    '',
    `\`node bin/run-ts.js bench/scale.bench.ts\` (${((Date.now() - t0) / 1000).toFixed(0)} s this run; \`REPS\`, \`DURATION\`, \`QUERIES\`, \`PER_WORKER\`, \`PARTS=A,B\`). Real processes on loopback, PostgreSQL 15 and Redis 7 on the same 2-vCPU machine as every trawl process; medians of ${REPS} interleaved runs. Notes below the tables.`,
    '',
    ...(a ? [
      '## A. Throughput grows with worker processes (latency-bound source)',
      '',
      `The test adapter waits 50 ms per query (a source whose answer time, not CPU, bounds the work). One API process (\`--no-workers\`) and 1 or 3 worker processes, each with \`CONCURRENCY=${PER_WORKER}\`, on one PostgreSQL schema and one Redis prefix (Redis queue). ${QUERIES} queries per run as ${Math.ceil(QUERIES / 120)} requests of 120, submitted at once after an untimed warm-up run; queries/s = queries / (last request's \`finished_at\` - first request's \`created_at\`), read from the store.`,
      '',
      a.md,
      '',
      `Runs (queries/s): \`${JSON.stringify(rounded(a.raw))}\``,
      '',
      `- Each query takes 50 ms at the source; with 1 worker an item slot turns over every ${(PER_WORKER / median(a.raw['1']) * 1000).toFixed(1)} ms, with 3 every ${(3 * PER_WORKER / median(a.raw['3']) * 1000).toFixed(1)} ms. The difference to 50 ms is trawl's own work per item (BullMQ job fetch and finish, the claim and the completion transaction in PostgreSQL, the request's row lock shared by its 120 items) plus the start and the tail of a run, all on 2 vCPUs that also run PostgreSQL, Redis, the API process and the bench.`,
      '- More processes help as long as the source, not trawl, is the limit: per-process concurrency stays the same, so each worker adds the same number of open queries. On a real deployment the workers sit on other machines than the database; here they compete for the same two cores, so the ratio measured is a lower bound.',
      '',
    ] : []),
    ...(b ? [
      '## B. PostgreSQL store vs SQLite store at the API level',
      '',
      `Same harness for both stores: one API-only \`test/support/serve-test.ts\` process per store (embedded queue, in-memory rate limiter, so only the store differs; PostgreSQL pool of 16), autocannon ${DURATION} s with 50 connections from the bench process. Submit: async \`GET /maps/search?query=n=1\` (auth, rate limit, price lookup, request and item insert). Result read: \`GET /requests/{id}\` of a finished 1-query request with 10 place-like records. Store-level numbers (no HTTP) are in \`docs/performance/backends.md\`.`,
      '',
      b.md,
      '',
      `Runs (req/s): \`${JSON.stringify(rounded(b.raw))}\``,
      '',
      '- A submit on PostgreSQL is one round trip for the request and its items (plus cached key and price lookups); a result read is two (the request row, then the results page). Each round trip costs the API process CPU in node-postgres (pool checkout, protocol, row parsing), where a SQLite read is 16-26 us in process. The CPU column is the API process\'s CPU time per call: at 50 connections the API process is the bottleneck (it runs at about one core), so req/s follow that column; PostgreSQL\'s own CPU comes on top on this shared machine. The HTTP work common to both narrows the store-level gap (7-17x for reads in `docs/performance/backends.md`) to the ratio above; the read is the operation at the 2x line.',
      '- These ratios move with the machine\'s load (other work shares the 2 vCPUs): compare only numbers from one run. Several API processes behind a load balancer multiply both columns; with PostgreSQL they also share one store, which SQLite cannot do across machines.',
      '',
    ] : []),
  ].join('\n');
  console.log(text);
  if (a && b) writeSection('docs/performance/scale.md', text);
}

await main();
