/**
 * Bounded storage (issue 15): what a stored query costs on disk, compressed or not, and the database
 * size after N queries at 4-hour retention.
 *
 * 1. Ratio and CPU of the records codec (src/store/records-codec.ts) on real captures: the records
 *    of the map search capture (20 places) and of a place capture, brotli at qualities 1, 4 and 6
 *    against the JSON text, plus PostgreSQL's own TOAST compression of the same text (pglz, lz4)
 *    when TEST_DATABASE_URL is set.
 * 2. A SQLite store filled through the store API with N one-query requests of the search records,
 *    finished evenly over 8 hours of a simulated clock; then the janitor's purge at 4-hour
 *    retention. Sizes (pages in use + WAL) before and after, for RESULT_COMPRESSION=off and 1.
 *
 * Run: node bin/run-ts.js bench/storage.bench.ts   (N=4000 by default: STORAGE_N)
 * Needs FIXTURES_DIR (default ../shared/fixtures) with google-maps/ in it.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { parseSearchBody } from '../src/sources/_maps/search-body.ts';
import { parsePlaceBody } from '../src/sources/_maps/place-parse.ts';
import { fixturePath } from '../src/sources/_kit/fixtures.ts';
import { openSqliteStore } from '../src/store/sqlite/store.ts';
import { purgeExpired } from '../src/app/janitor.ts';
import { median, table, writeSection } from './lib.ts';

const N = Number(process.env.STORAGE_N ?? 4000);
const HOUR = 3600_000;
const dir = fixturePath('google-maps');
if (!existsSync(dir)) { console.error(`fixtures not found at ${dir} (set FIXTURES_DIR)`); process.exit(1); }
const read = (f: string) => readFileSync(resolve(dir, f), 'utf8');
const searchText = JSON.stringify(parseSearchBody(")]}'\n" + read('search_tbm-map_coffee_2024-12.json'), { query: 'coffee' }));
const placeText = JSON.stringify([parsePlaceBody(")]}'\n" + read('place_kipriakon_en_2023-09.json'))]);

/** Median ms of `fn` over runs of ~300 ms (CPU-bound, so wall time on this shared box). */
function timeMs(fn: () => unknown): number {
  const runs: number[] = [];
  for (let r = 0; r < 5; r++) {
    let n = 0; const t = performance.now();
    while (performance.now() - t < 300) { fn(); n++; }
    runs.push((performance.now() - t) / n);
  }
  return median(runs);
}

const codecRows: (string | number)[][] = [];
for (const [name, text] of [['map search, 20 places', searchText], ['place details, 1 place', placeText]] as const) {
  const buf = Buffer.from(text);
  codecRows.push([name, 'JSON text (before)', buf.length, '1.00x', '-', '-']);
  for (const q of [1, 4, 6]) {
    const pack = () => brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: q, [constants.BROTLI_PARAM_SIZE_HINT]: buf.length, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } });
    const packed = pack();
    codecRows.push([name, `brotli ${q}${q === 1 ? ' (default)' : ''}`, packed.length, `${(buf.length / packed.length).toFixed(2)}x`, timeMs(pack).toFixed(3), timeMs(() => brotliDecompressSync(packed)).toFixed(3)]);
  }
  if (process.env.TEST_DATABASE_URL) {
    const pg = (await import('pg')).default;
    const c = new pg.Client(process.env.TEST_DATABASE_URL);
    await c.connect();
    try {
      await c.query('CREATE TEMP TABLE t (a text, b text COMPRESSION lz4)');
      await c.query('INSERT INTO t VALUES ($1, $1)', [text]);
      const [r] = (await c.query('SELECT pg_column_size(a) AS pglz, pg_column_size(b) AS lz4 FROM t')).rows;
      codecRows.push([name, 'PostgreSQL TOAST pglz (server CPU)', r.pglz, `${(buf.length / r.pglz).toFixed(2)}x`, '-', '-']);
      codecRows.push([name, 'PostgreSQL TOAST lz4 (server CPU)', r.lz4, `${(buf.length / r.lz4).toFixed(2)}x`, '-', '-']);
    } finally { await c.end(); }
  }
}
console.log(table(['records', 'stored as', 'bytes', 'ratio', 'pack ms', 'unpack ms'], codecRows));

/** N requests finished evenly over 8 simulated hours, then one janitor pass at 4-hour retention. */
async function fill(compression: number | null) {
  const tmp = mkdtempSync(join(tmpdir(), 'trawl-storage-'));
  const store = await openSqliteStore(join(tmp, 'trawl.db'), { compression });
  try {
    const end = Date.now();
    const start = end - 8 * HOUR;
    await store.createAccount({ id: 'bench', name: 'bench', balanceMicros: 1e15, creditLimitMicros: 0, currency: 'usd', pastDue: false, webhookSecret: 's', webhookUrl: null, ratePerSec: 1e6, burst: 1e6 });
    const t = performance.now();
    for (let i = 0; i < N; i++) {
      const at = start + Math.floor((i / N) * 8 * HOUR);
      await store.createRequest({ id: `r${String(i).padStart(7, '0')}`, accountId: 'bench', endpoint: '/maps/search', params: { limit: 20 }, queries: [`coffee ${i}`], webhook: null, product: 'engine_maps_search', unit: 'place', unitPriceMicros: 3_000, emptyCostsOne: true, dropDuplicates: false, taskId: null, maxAttempts: 4, createdAt: at });
      const [it] = await store.claimItems('w', 1, 60_000, at, [`r${String(i).padStart(7, '0')}:0`]);
      await store.completeItem({ itemId: it.id, owner: 'w', recordsJson: searchText, count: 20, now: at });
    }
    const writeMs = performance.now() - t;
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    const before = await store.sizeBytes();
    const results = (store.db.prepare('SELECT COUNT(*) AS n FROM results').get() as { n: number }).n;
    const ctx = { store, settings: { retentionMs: 4 * HOUR, historyMs: 24 * HOUR, purgeBatch: 100 } as any, now: () => end };
    await purgeExpired(ctx, 100);
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    const after = await store.sizeBytes();
    const kept = (store.db.prepare('SELECT COUNT(*) AS n FROM results').get() as { n: number }).n;
    return { before, after, results, kept, writeMs };
  } finally { await store.close(); rmSync(tmp, { recursive: true, force: true }); }
}

const mb = (b: number) => (b / 1e6).toFixed(1);
const fillRows: (string | number)[][] = [];
const perQuery: Record<string, number> = {};
for (const [label, q] of [['off (text)', null], ['brotli 1 (default)', 1]] as const) {
  const r = await fill(q);
  perQuery[label] = r.after / r.kept;
  fillRows.push([label, N, mb(r.before), r.kept, mb(r.after), (r.after / r.kept / 1000).toFixed(1), (r.writeMs / N).toFixed(2)]);
  console.log(fillRows[fillRows.length - 1].join(' | '));
}
const rate = 325;
const queries4h = rate * 4 * 3600;
const load = loadavg()[0];
const md = `# Bounded storage (issue 15)

\`node bin/run-ts.js bench/storage.bench.ts\` (load average ${load.toFixed(1)} on 2 cores; node ${process.version}).

## Records codec on real captures

Records parsed from the captures in FIXTURES_DIR/google-maps (the search body of 20 places, a place
body), stored as JSON text before this change and as brotli now (\`RESULT_COMPRESSION\`, default
quality 1). Pack/unpack: median ms per query's records on this machine (CPU-bound; wall time).

${table(['records', 'stored as', 'bytes', 'ratio', 'pack ms', 'unpack ms'], codecRows)}

## Database size at 4-hour retention (SQLite)

${N} one-query map searches (the 20 real places each), finished evenly over 8 hours of a simulated
clock, written through the store API; then one janitor pass at \`RETENTION_MS\` = 4 h (requests stay
24 h as history, their results go). Size = pages in use + WAL, after a checkpoint.

${table(['results stored as', 'queries written', 'MB before purge', 'results kept (last 4 h)', 'MB after purge', 'KB per kept query (all tables)', 'ms per query written'], fillRows)}

At ${rate} queries/s (issue 15's map-search rate), 4 hours hold ${(queries4h / 1e6).toFixed(2)} M queries: about
**${(perQuery['off (text)'] * queries4h / 1e9).toFixed(0)} GB as text, ${(perQuery['brotli 1 (default)'] * queries4h / 1e9).toFixed(0)} GB compressed** (the size per kept query from the table,
which also carries the request, item and usage rows of the purged half: history stays 24 h).
`;
writeSection('docs/performance/storage.md', md);
console.log(md);
