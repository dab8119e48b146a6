/**
 * The PostgreSQL store's part of a synchronous map search alone (issue 37), as bench/store-path.ts
 * is SQLite's: submit (request and item, only while the account can pay), claim (the fair order),
 * the purse's second ask (the account read), completion (lease check, 49 KB of records, billed, the
 * request ended), C at a time, as the service calls them, with nothing else in the process. Prints
 * this process's CPU a query, its backends' CPU a query (bench/pg-cpu.ts, from /proc: ticks of 10 ms,
 * so N of a few thousand), the statements a query by kind with each one's backend CPU
 * (./pg-statements.ts; PG_STATEMENTS_CPU=0: counts only, its /proc reads cost this process about
 * 0.25 ms a query), and queries/s. The service bench cannot
 * resolve a change of a statement or two on a loaded box; this one runs in seconds, so its runs can
 * alternate with another checkout's store on the same box.
 *
 * Run: TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node bin/run-ts.js bench/pg-store-path.ts
 *   (N=3000 C=16 SLOTS=2; SRC=<another checkout>/src: that store's code instead, e.g. main's, to compare;
 *   each run on a new schema, dropped after)
 */
import { pgCpuMs } from './pg-cpu.ts';
import { pgStatements, resetPgStatements } from './pg-statements.ts';
import { mapSearchRecordsJson, runConcurrently } from './store-path-lib.ts';

const SRC = process.env.SRC ?? new URL('../src', import.meta.url).pathname;
const URL_ = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
const N = Number(process.env.N ?? 3000);
const C = Number(process.env.C ?? 16);
const WARM = 300;
if (!URL_) throw new Error('set TEST_DATABASE_URL');

interface PathStore {
  createAccount(a: Record<string, unknown>): Promise<{ id: string }>;
  createRequest(r: Record<string, unknown>, o: { whilePayable: boolean }): Promise<boolean>;
  claimItems(owner: string, max: number, leaseMs: number, now: number): Promise<{ id: string; accountId: string }[]>;
  getAccount(id: string): Promise<unknown>;
  completeItem(o: Record<string, unknown>): Promise<{ finished: unknown }>;
  close(): Promise<void>;
}
const { openScratchPostgresStore } = (await import(`${SRC}/store/postgres/testing.ts`)) as { openScratchPostgresStore: (url: string) => Promise<PathStore> };
const store = await openScratchPostgresStore(URL_);

const recordsJson = mapSearchRecordsJson();
const recordsUtf8 = Buffer.from(recordsJson);

const account = await store.createAccount({ id: `bench${process.pid}`, name: 'bench', balanceMicros: 1e15, creditLimitMicros: 0, currency: 'usd', pastDue: false,
  webhookSecret: 's', webhookUrl: null, ratePerSec: 1e6, burst: 1e6, createdAt: 1 });
let k = 0;
// The service's runner holds a CPU slot (CPU_SLOTS, default 2) over a completion's round trip: at most
// SLOTS completions in flight, as there.
const SLOTS = Number(process.env.SLOTS ?? 2);
let free = SLOTS;
const waiting: (() => void)[] = [];
async function inSlot<T>(f: () => Promise<T>): Promise<T> {
  if (free > 0) free--; else await new Promise<void>((r) => waiting.push(r));
  try { return await f(); } finally { const w = waiting.shift(); if (w) w(); else free++; }
}

async function one(): Promise<void> {
  const id = `r${String(k++).padStart(8, '0')}`;
  const made = await store.createRequest({ id, accountId: account.id, endpoint: '/maps/search', params: { limit: 20, language: 'en' }, queries: ['coffee'], webhook: null,
    product: 'maps_search', unit: 'place', unitPriceMicros: 1_000, emptyCostsOne: true, dropDuplicates: false, taskId: null, maxAttempts: 3, createdAt: Date.now() }, { whilePayable: true });
  if (!made) throw new Error('the account could not pay');
  // Claims run concurrently and skip the rows another holds: one may find none (it claims again), and
  // any query's item may be the one claimed.
  let it: { id: string; accountId: string } | undefined;
  for (let tries = 0; !it; tries++) {
    if (tries > 100) throw new Error('nothing to claim');
    [it] = await store.claimItems('w1', 1, 60_000, Date.now());
  }
  await store.getAccount(it.accountId);
  const fan = await inSlot(() => store.completeItem({ itemId: it.id, owner: 'w1', recordsJson, recordsUtf8, count: 20, now: Date.now() }));
  if (!fan.finished) throw new Error(`${it.id} did not end its request`);
}

const run = (n: number) => runConcurrently(n, C, one);

try {
  await run(WARM);
  resetPgStatements();
  const p0 = pgCpuMs(process.pid);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await run(N);
  const cpu = process.cpuUsage(c0);
  const secs = (performance.now() - t0) / 1000;
  const p1 = pgCpuMs(process.pid);
  // kind: [statements a query, backend ms a statement]
  const kinds = pgStatements();
  const byKind = Object.fromEntries([...kinds].sort((a, b) => b[1][1] - a[1][1]).map(([t, [n, ms]]) => [t, [+(n / N).toFixed(3), +(ms / n).toFixed(3)]]));
  console.log(JSON.stringify({ src: SRC, nodeMsPerQuery: +((cpu.user + cpu.system) / 1000 / N).toFixed(4), nodeSystemMsPerQuery: +(cpu.system / 1000 / N).toFixed(4), backendsMsPerQuery: +((p1.own - p0.own) / N).toFixed(4),
    pgAllMsPerQuery: +((p1.all - p0.all) / N).toFixed(4), statementsPerQuery: +([...kinds.values()].reduce((s, [n]) => s + n, 0) / N).toFixed(2),
    queriesPerSecond: Math.round(N / secs), byKind }));
} finally {
  await store.close();
}
