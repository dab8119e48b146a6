/**
 * The SQLite store's part of a synchronous map search alone (issue 37): submit (request and item),
 * claim (the fair order), completion (lease check, 49 KB of records compressed and stored, billed,
 * the request ended), C at a time on a file database, as the service calls them, with nothing else
 * in the process. Prints the store's CPU a query (this process; no checkpoint thread here), its
 * statements a query (./sqlite-statements.ts; BEGIN and COMMIT apart), commits a query and the
 * write-ahead log's frames a query. The
 * service bench cannot resolve a change of a few statements on a loaded box (±10-15 % between its
 * repetitions); this one runs in seconds, so its runs can alternate, on the same box, with another
 * checkout's store.
 *
 * Run: node bin/run-ts.js bench/store-path.ts   (N=3000 C=16; SRC=<another checkout>/src: that
 * store's code instead, e.g. main's, to compare; GAP=<ms>: a random pause up to it between the
 * calls of a query, so fewer writes share a commit, as in the service)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SqliteStore } from '../src/store/sqlite/store.ts';
import { resetStatements, statementKinds } from './sqlite-statements.ts';
import { mapSearchRecordsJson, runConcurrently } from './store-path-lib.ts';

const SRC = process.env.SRC ?? new URL('../src', import.meta.url).pathname;
const N = Number(process.env.N ?? 3000);
const C = Number(process.env.C ?? 16);
const GAP = Number(process.env.GAP ?? 0);
const WARM = 300;

const { openSqliteStore } = (await import(`${SRC}/store/sqlite/store.ts`)) as { openSqliteStore: (file: string) => Promise<SqliteStore> };
const dir = mkdtempSync(join(tmpdir(), 'trawl-store-path-'));
const store = await openSqliteStore(join(dir, 'trawl.db'));

const recordsJson = mapSearchRecordsJson();

const account = await store.createAccount({ id: 'bench', name: 'bench', balanceMicros: 1e15, creditLimitMicros: 0, currency: 'usd', pastDue: false, webhookSecret: 's',
  webhookUrl: null, ratePerSec: 1e6, burst: 1e6 });
const pause = () => (GAP ? new Promise((r) => setTimeout(r, Math.random() * GAP)) : undefined);
let k = 0;

async function one(): Promise<void> {
  const id = `r${String(k++).padStart(8, '0')}`;
  const made = await store.createRequest({ id, accountId: account.id, endpoint: '/maps/search', params: { limit: 20, language: 'en' }, queries: ['coffee'], webhook: null,
    product: 'maps_search', unit: 'place', unitPriceMicros: 1_000, emptyCostsOne: true, dropDuplicates: false, taskId: null, maxAttempts: 3, createdAt: Date.now() }, { whilePayable: true });
  if (!made) throw new Error('the account could not pay');
  await pause();
  const [it] = await store.claimItems('w1', 1, 60_000, Date.now());
  if (!it) throw new Error('nothing to claim');
  await pause();
  const fan = await store.completeItem({ itemId: it.id, owner: 'w1', recordsJson, count: 20, now: Date.now() });
  if (!fan.finished) throw new Error(`${it.id} did not end its request`);
}

const run = (n: number) => runConcurrently(n, C, one);

try {
  await run(WARM);
  // The log is copied into the file and emptied, and no checkpoint runs meanwhile: what it holds after is the N queries' frames.
  const db = store.db;
  db.pragma('wal_autocheckpoint = 0');
  db.pragma('wal_checkpoint(TRUNCATE)');
  resetStatements();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await run(N);
  const cpu = process.cpuUsage(c0);
  const secs = (performance.now() - t0) / 1000;
  const { commits, path } = statementKinds();
  const [{ log }] = db.pragma('wal_checkpoint(PASSIVE)') as { log: number }[];
  console.log(JSON.stringify({ src: SRC, cpuMsPerQuery: +((cpu.user + cpu.system) / 1000 / N).toFixed(4), systemMsPerQuery: +(cpu.system / 1000 / N).toFixed(4),
    statementsPerQuery: +(path / N).toFixed(2), commitsPerQuery: +(commits / N).toFixed(3), walFramesPerQuery: +(log / N).toFixed(2), queriesPerSecond: Math.round(N / secs) }));
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
