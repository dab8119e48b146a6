/**
 * Backends: (a) queue overhead — work items per second through each queue backend with an adapter that
 * answers instantly (the real Runner, store claim + complete included), against BullMQ's own raw
 * add/process rate (Queue.addBulk + a no-op Worker) measured in the same run; (b) store — submit rate
 * (createRequest of 1-query requests) and result-read rate (getRequest + readResults of a finished
 * 1-query request), SQLite against PostgreSQL, one caller at a time and 16 at once.
 *
 * Services: PostgreSQL from BENCH_DATABASE_URL | TEST_DATABASE_URL | DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/test), Redis from BENCH_REDIS_URL | TEST_REDIS_URL | REDIS_URL
 * (default redis://127.0.0.1:6379). A part whose service does not answer is skipped with a note.
 *
 *   node bin/run-ts.js bench/backends.bench.ts
 *   BENCH_ITEMS=10000 BENCH_CONCURRENCY=32 BENCH_RUNS=5 node bin/run-ts.js bench/backends.bench.ts
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { NewRequest, RequestRow, Store } from '../src/store/contract.ts';
import type { WorkQueue } from '../src/engine/queue.ts';
import type { LocalAdapter } from '../src/sources/_kit/adapter.ts';
import { Runner } from '../src/engine/runner.ts';
import { openSqliteStore } from '../src/store/sqlite/store.ts';
import { openScratchPostgresStore } from '../src/store/postgres/testing.ts';
import type { PostgresStore } from '../src/store/postgres/store.ts';
import { EmbeddedQueue } from '../src/engine/backends/embedded.ts';
import { RedisQueue } from '../src/engine/backends/redis.ts';
import { PostgresQueue } from '../src/engine/backends/postgres.ts';
import { deleteKeys, uniquePrefix } from '../src/engine/backends/redis-testing.ts';
import { median, sleep } from './lib.ts';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 5_000);
const CONC = Number(process.env.BENCH_CONCURRENCY ?? 64);
const RUNS = Math.max(3, Number(process.env.BENCH_RUNS ?? 3));
const STORE_N = Number(process.env.BENCH_STORE_OPS ?? 2_000);
const PAR = 16;
/** Which parts to run: queue, store (default both). */
const PARTS = new Set((process.env.BENCH_PARTS ?? 'queue,store').split(',').map((x) => x.trim()));
const PG_URL = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL || process.env.TEST_REDIS_URL || process.env.REDIS_URL || 'redis://127.0.0.1:6379';

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
/** Rejects after `ms` unless `p` settles first; the timer never keeps the process alive. */
function deadline<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms); });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}
const notes: string[] = [];

async function reachable(what: string, probe: () => Promise<void>): Promise<boolean> {
  try {
    await deadline(probe(), 2_000, 'probe');
    return true;
  } catch (e) {
    notes.push(`${what} not reachable (${(e as Error).message}): its rows are skipped.`);
    return false;
  }
}

const hasPg = await reachable(`PostgreSQL at ${PG_URL.replace(/\/\/[^@/]*@/, '//')}`, async () => {
  const c = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2_000 });
  c.on('error', () => {});
  try { await c.connect(); await c.query('SELECT 1'); } finally { await c.end().catch(() => {}); }
});
const hasRedis = await reachable(`Redis at ${REDIS_URL}`, async () => {
  const r = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  r.on('error', () => {});
  try { await r.connect(); await r.ping(); } finally { r.disconnect(); }
});

const dir = await mkdtemp(join(tmpdir(), 'trawl-backends-bench-'));
const sqliteFile = () => join(dir, `${randomUUID()}.db`);

async function newAccount(store: Store): Promise<string> {
  const id = randomUUID();
  await store.createAccount({ id, name: 'bench', balanceMicros: 1e15, creditLimitMicros: 0, currency: 'usd', pastDue: false,
    webhookSecret: 's', webhookUrl: null, ratePerSec: 1e9, burst: 1e9 });
  return id;
}

const newRequest = (accountId: string, queries: string[]): NewRequest => ({
  id: randomUUID(), accountId, endpoint: '/bench', params: { limit: 1 }, queries, webhook: null, product: 'bench', unit: 'record',
  unitPriceMicros: 1_000, emptyCostsOne: true, dropDuplicates: false, taskId: null, maxAttempts: 3, createdAt: Date.now(),
});

// ------------------------------------------------------------------------------------------ (a) queues

/** BullMQ alone: addBulk of ITEMS jobs, a Worker whose processor does nothing. */
async function rawBullmq(): Promise<number> {
  const prefix = uniquePrefix('bench');
  const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const queue = new Queue('raw', { connection, prefix });
  let done = 0;
  let finish!: () => void;
  const all = new Promise<void>((r) => { finish = r; });
  const worker = new Worker('raw', async () => { if (++done === ITEMS) finish(); }, { connection, prefix, concurrency: CONC });
  await worker.waitUntilReady();
  try {
    const t0 = performance.now();
    for (let i = 0; i < ITEMS; i += 1_000) {
      await queue.addBulk(Array.from({ length: Math.min(1_000, ITEMS - i) }, (_, k) => ({
        name: 'item', data: { id: `r:${i + k}` }, opts: { jobId: `r%3A${i + k}#0`, removeOnComplete: true, removeOnFail: true },
      })));
    }
    await all;
    return ITEMS / ((performance.now() - t0) / 1000);
  } finally {
    await worker.close();
    await queue.close();
    connection.disconnect();
    await deleteKeys(REDIS_URL, prefix);
  }
}

const instant: LocalAdapter = { kind: 'local', endpoint: '/bench', lookup: async () => [] };

/** ITEMS items in requests of 1000 queries, enqueued as the API would, run by the real Runner. */
async function throughQueue(store: Store, makeQueue: (s: Store) => WorkQueue): Promise<number> {
  const queue = makeQueue(store);
  const owner = `bench-${randomUUID().slice(0, 8)}`;
  let finished = 0;
  const requests = Math.ceil(ITEMS / 1_000);
  let finish!: () => void;
  const all = new Promise<void>((r) => { finish = r; });
  const runner = new Runner({
    store, queue, owner, adapterFor: () => instant,
    fetchStep: async () => { throw new Error('no fetch in this bench'); },
    onRequestFinished: (r: RequestRow) => { if (r.status !== 'Success') throw new Error(`request ended ${r.status}`); if (++finished === requests) finish(); },
  });
  queue.start((item) => runner.run(item), { concurrency: CONC, owner, leaseMs: 60_000 });
  await sleep(200); // start-up sweep/pump done before any item exists
  try {
    const accountId = await newAccount(store);
    const reqs: NewRequest[] = [];
    for (let i = 0; i < ITEMS; i += 1_000) {
      const r = newRequest(accountId, Array.from({ length: Math.min(1_000, ITEMS - i) }, (_, k) => `q${i + k}`));
      reqs.push(r);
      await store.createRequest(r);
    }
    const t0 = performance.now();
    for (const r of reqs) await queue.enqueue(r.queries.map((_, i) => ({ id: `${r.id}:${i}` })));
    await deadline(all, 120_000, 'queue run');
    return ITEMS / ((performance.now() - t0) / 1000);
  } finally {
    await queue.close();
  }
}

async function medianOf(label: string, fn: () => Promise<number>): Promise<number> {
  const xs: number[] = [];
  for (let i = 0; i < RUNS; i++) xs.push(await fn());
  process.stderr.write(`  ${label}: ${xs.map(fmt).join(', ')}\n`);
  return median(xs);
}

const queueRows: { name: string; rate: number }[] = [];
const started = performance.now();
let raw = NaN;
if (PARTS.has('queue') && hasRedis) {
  raw = await medianOf('bullmq raw', rawBullmq);
  queueRows.push({ name: 'BullMQ raw: Queue.addBulk + no-op Worker (baseline)', rate: raw });
  queueRows.push({ name: 'trawl RedisQueue + SQLite store (file, WAL)', rate: await medianOf('redis+sqlite', async () => {
    const store = await openSqliteStore(sqliteFile());
    const prefix = uniquePrefix('bench');
    try { return await throughQueue(store, (s) => new RedisQueue(s, { url: REDIS_URL, prefix })); } finally { await store.close(); await deleteKeys(REDIS_URL, prefix); }
  }) });
  if (hasPg) {
    queueRows.push({ name: 'trawl RedisQueue + PostgreSQL store', rate: await medianOf('redis+pg', async () => {
      const store = await openScratchPostgresStore(PG_URL, { max: 20 });
      const prefix = uniquePrefix('bench');
      try { return await throughQueue(store, (s) => new RedisQueue(s, { url: REDIS_URL, prefix })); } finally { await store.close(); await deleteKeys(REDIS_URL, prefix); }
    }) });
  }
}
if (PARTS.has('queue')) {
  queueRows.push({ name: 'trawl EmbeddedQueue + SQLite store (file, WAL)', rate: await medianOf('embedded+sqlite', async () => {
    const store = await openSqliteStore(sqliteFile());
    try { return await throughQueue(store, (s) => new EmbeddedQueue(s)); } finally { await store.close(); }
  }) });
}
if (PARTS.has('queue') && hasPg) {
  queueRows.push({ name: 'trawl PostgresQueue + PostgreSQL store', rate: await medianOf('pg queue', async () => {
    const store = await openScratchPostgresStore(PG_URL, { max: 20 });
    try { return await throughQueue(store, (s) => new PostgresQueue(s as PostgresStore)); } finally { await store.close(); }
  }) });
}

// ------------------------------------------------------------------------------------------ (b) stores

/** Runs `op` n times with `par` callers; returns operations per second. */
async function rate(n: number, par: number, op: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: par }, async () => { for (let i = next++; i < n; i = next++) await op(i); }));
  return n / ((performance.now() - t0) / 1000);
}

const RECORDS = JSON.stringify(Array.from({ length: 10 }, (_, i) => ({ name: `Place ${i}`, full_address: `${i} Main St, Springfield`, rating: 4.5, reviews: 120 + i, latitude: 40.1 + i / 100, longitude: -74.2, phone: '+1 555 0100', site: 'https://example.com/' })));

async function storeRates(open: () => Promise<Store>): Promise<Record<string, number>> {
  const out: Record<string, number[]> = { submit1: [], submit16: [], read1: [], read16: [] };
  for (let run = 0; run < RUNS; run++) {
    const store = await open();
    try {
      const accountId = await newAccount(store);
      // Warm-up (JIT, prepared statements, pool connections), not measured.
      await rate(300, PAR, async () => { await store.createRequest(newRequest(accountId, ['q'])); });
      out.submit1.push(await rate(STORE_N, 1, async () => { await store.createRequest(newRequest(accountId, ['q'])); }));
      out.submit16.push(await rate(STORE_N, PAR, async () => { await store.createRequest(newRequest(accountId, ['q'])); }));
      // Finished requests to read: claim and complete every item submitted above.
      for (;;) {
        const items = await store.claimItems('w', 500, 60_000, Date.now() + 1_000);
        if (!items.length) break;
        for (const it of items) await store.completeItem({ itemId: it.id, owner: 'w', recordsJson: RECORDS, count: 10, now: Date.now() });
      }
      const ids = (await store.listRequests(accountId, { finished: true, since: 0, skip: 0, limit: 2 * STORE_N + 300 })).map((r) => r.id);
      if (ids.length < STORE_N) throw new Error(`only ${ids.length} finished requests`);
      const read = async (i: number) => {
        const r = await store.getRequest(ids[i]);
        if (!r) throw new Error('missing request');
        let n = 0;
        for await (const x of store.readResults(r.id)) n += x.recordsJson.length;
        if (n !== RECORDS.length) throw new Error('short read');
      };
      await rate(300, PAR, read);
      out.read1.push(await rate(STORE_N, 1, read));
      out.read16.push(await rate(STORE_N, PAR, read));
    } finally {
      await store.close();
    }
  }
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, median(v)]));
}

process.stderr.write('  stores...\n');
const sqliteRates = PARTS.has('store') ? await storeRates(() => openSqliteStore(sqliteFile())) : null;
const pgRates = PARTS.has('store') && hasPg ? await storeRates(() => openScratchPostgresStore(PG_URL, { max: PAR })) : null;

await rm(dir, { recursive: true, force: true });
const seconds = (performance.now() - started) / 1000;

// ------------------------------------------------------------------------------------------ report
const lines: string[] = [];
lines.push(`# backends bench — ${new Date().toISOString().slice(0, 10)}, node ${process.version}, ${cpus().length} CPU (${cpus()[0]?.model.trim()}), load ${loadavg()[0].toFixed(2)}`);
lines.push('');
lines.push(`## (a) Queue overhead: ${fmt(ITEMS)} work items, instant adapter, worker concurrency ${CONC}, median of ${RUNS}`);
lines.push('');
lines.push('| path | items/s | vs BullMQ raw |');
lines.push('|---|---:|---:|');
for (const r of queueRows) lines.push(`| ${r.name} | ${fmt(r.rate)} | ${Number.isNaN(raw) ? 'n/a' : `${(r.rate / raw).toFixed(2)}x`} |`);
lines.push('');
lines.push(`## (b) Store: ${fmt(STORE_N)} operations, median of ${RUNS}`);
lines.push('');
lines.push('| operation | callers | SQLite ops/s | PostgreSQL ops/s | SQLite / PostgreSQL |');
lines.push('|---|---:|---:|---:|---:|');
const label: Record<string, [string, number]> = { submit1: ['submit (createRequest, 1 query)', 1], submit16: ['submit (createRequest, 1 query)', PAR], read1: ['result read (getRequest + readResults, 10 records)', 1], read16: ['result read (getRequest + readResults, 10 records)', PAR] };
for (const k of sqliteRates ? Object.keys(label) : []) {
  const s = sqliteRates![k];
  const p = pgRates?.[k];
  lines.push(`| ${label[k][0]} | ${label[k][1]} | ${fmt(s)} | ${p ? fmt(p) : 'skipped'} | ${p ? `${(s / p).toFixed(2)}x` : 'n/a'} |`);
}
lines.push('');
for (const n of notes) lines.push(`Note: ${n}`);
lines.push(`Total bench time: ${seconds.toFixed(0)} s.`);
console.log(lines.join('\n'));
