/**
 * The business database (issue 13): generated businesses (bench/business-fixture.ts), then the
 * searches the issue times, on SQLite and (with TEST_DATABASE_URL) PostgreSQL, plus the OSM import
 * rate on the Andorra extract. With --write, writes docs/performance/businesses.md.
 *
 *   node bin/run-ts.js bench/businesses.bench.ts [--rows 1000000] [--runs 50] [--no-pg] [--db FILE] [--pg-schema NAME]
 *
 * `--db FILE` keeps the SQLite file and reuses it when it exists, `--pg-schema NAME` the same for a
 * PostgreSQL schema (migrated on open; for work on the searches; the measured run builds both fresh).
 * Each search runs `runs` times after as many warm-up runs (at most 20), alternately from the first page and from a cursor
 * after the 200th match, SQLite and PostgreSQL interleaved run by run (the box is shared and noisy: a
 * burst of load hits both); medians are quoted with the baseline of the same run, a page of 10
 * without filter (the cheapest read).
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../src/store/sqlite/store.ts';
import { openPostgresStore, type PostgresStore } from '../src/store/postgres/store.ts';
import { businessStoreOf } from '../src/store/businesses/index.ts';
import type { BusinessQuery, BusinessRecord, BusinessStore } from '../src/store/businesses/contract.ts';
import type { Store } from '../src/store/contract.ts';
import { importOsm } from '../src/businesses/osm-import.ts';
import { generatedBusinesses } from './business-fixture.ts';
import { median, table, writeSection } from './lib.ts';

const arg = (name: string) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
const ROWS = Number(arg('--rows') ?? 1_000_000);
const RUNS = Number(arg('--runs') ?? 50);
const KEEP = arg('--db');
const PG = process.argv.includes('--no-pg') ? undefined : process.env.TEST_DATABASE_URL;
const PG_SCHEMA = arg('--pg-schema');
const OWNER = 'acct';

const SEARCHES: [string, Partial<BusinessQuery>, number?][] = [
  ['page of 10, no filter (baseline)', {}],
  ['country_code US + types Cafe + rating 4.5+', { countryCode: 'US', types: ['cafe'], rating: { min: 4.5 } }],
  ['2 km circle (central Austin)', { geo: [{ type: 'circle', lat: 30.2672, lng: -97.7431, radius_m: 2000 }] }],
  ['name contains "golden"', { name: 'golden' }],
  ['city Paris + has_website + reviews 100+', { cities: ['paris'], hasWebsite: true, reviews: { min: 100 } }],
  ['include_total: country + types + rating', { countryCode: 'US', types: ['cafe'], rating: { min: 4.5 }, includeTotal: true }, 10],
  ['include_total: no filter', { includeTotal: true }, 5],
  ['sparse: country DE + types Bookbinder + rating 4.9+', { countryCode: 'DE', types: ['bookbinder'], rating: { min: 4.9 } }, 10],
];

async function fill(db: BusinessStore): Promise<number> {
  const t0 = performance.now();
  let batch: BusinessRecord[] = [];
  for (const b of generatedBusinesses(ROWS)) {
    batch.push(b);
    if (batch.length === 1000) { await db.upsertBusinesses(OWNER, batch, 1_000_000); batch = []; }
  }
  if (batch.length) await db.upsertBusinesses(OWNER, batch, 1_000_000);
  await db.optimize();
  return ROWS / ((performance.now() - t0) / 1000);
}

/** Rows/s re-upserting the first 10,000 businesses unchanged (a re-scrape): only their `updated` moves. */
async function refill(db: BusinessStore): Promise<number> {
  const n = Math.min(10_000, ROWS);
  const all = [...generatedBusinesses(n)];
  const t0 = performance.now();
  for (let at = 0; at < n; at += 1000) await db.upsertBusinesses(OWNER, all.slice(at, at + 1000), 2_000_000);
  return n / ((performance.now() - t0) / 1000);
}

/** p50 of each search on each store, alternately from the first page and from after the 200th match,
 *  the stores taking turns run by run. */
async function timeAll(dbs: BusinessStore[]): Promise<number[][]> {
  const out: number[][] = dbs.map(() => []);
  for (const [, q, runs = RUNS] of SEARCHES) {
    const ones = await Promise.all(dbs.map(async (db) => {
      const first = await db.searchBusinesses({ accountId: OWNER, limit: 200, ...q, includeTotal: false });
      const starts = [undefined, ...first.items.length ? [first.last] : []];
      return async (i: number) => {
        const t = performance.now();
        await db.searchBusinesses({ accountId: OWNER, limit: 10, ...q, after: starts[i % starts.length] });
        return performance.now() - t;
      };
    }));
    // Warm-up runs, as many as are timed (up to 20): the first tens of runs of a code path are slower
    // until V8 has compiled it, and the PostgreSQL path has more code (driver, pool) to compile.
    for (let i = 0; i < Math.min(20, runs); i++) for (const one of ones) await one(i);
    const ms: number[][] = dbs.map(() => []);
    for (let i = 0; i < runs; i++) for (let k = 0; k < dbs.length; k++) ms[k].push(await ones[k](i));
    ms.forEach((m, k) => out[k].push(median(m)));
  }
  return out;
}

async function osmRate(): Promise<string> {
  const file = join(process.env.FIXTURES_DIR ?? '../shared/fixtures', 'osm', 'andorra.osm.pbf');
  if (!existsSync(file)) return `OSM import: skipped, ${file} not found (set FIXTURES_DIR)`;
  const s = await openSqliteStore(join(mkdtempSync(join(tmpdir(), 'trawl-osm-bench-')), 'osm.db'));
  try {
    const t0 = performance.now();
    const r = await importOsm(s, file, { country: 'AD' });
    const sec = (performance.now() - t0) / 1000;
    return `OSM import, Andorra PBF into a fresh SQLite file: ${r.objects.toLocaleString('en')} objects (${r.businesses} businesses) in ${sec.toFixed(2)} s = **${Math.round(r.objects / sec).toLocaleString('en')} objects/s** (target ≥ 20,000)`;
  } finally { await s.close(); }
}

const load0 = loadavg()[0];
const dir = mkdtempSync(join(tmpdir(), 'trawl-biz-bench-'));
const file = KEEP ?? join(dir, 'bench.db');
const reuse = KEEP !== undefined && existsSync(KEEP);
const lines: string[] = [];
const sqlite = await openSqliteStore(file);
let pg: PostgresStore | undefined;
let sqliteMs: number[];
let pgMs: number[] | null = null;
try {
  const db = businessStoreOf(sqlite);
  const rate = reuse ? NaN : await fill(db);
  sqlite.db.pragma('wal_checkpoint(TRUNCATE)');
  const size = statSync(file).size;
  lines.push(`SQLite: ${ROWS.toLocaleString('en')} rows${reuse ? ' (reused file)' : `, inserted at ${Math.round(rate).toLocaleString('en')} rows/s (batches of 1,000)`}; file ${(size / 1e6).toFixed(0)} MB = **${((size / 1e6) * (1e6 / ROWS)).toFixed(0)} MB per million** businesses`);
  const dbs = [db];
  if (PG) {
    pg = PG_SCHEMA ? await openPostgresStore(PG, { schema: PG_SCHEMA }) : await (await import('../src/store/postgres/testing.ts')).openScratchPostgresStore(PG);
    const pdb = businessStoreOf(pg as Store);
    const had = Number((await pg.pool.query('SELECT count(*) AS n FROM businesses')).rows[0].n);
    const prate = had ? NaN : await fill(pdb);
    if (had) await pdb.optimize();
    const { rows } = await pg.pool.query(`SELECT pg_total_relation_size('businesses') + pg_total_relation_size('business_types') AS n`);
    lines.push(`PostgreSQL: ${had ? `${had.toLocaleString('en')} rows (kept schema)` : `inserted at ${Math.round(prate).toLocaleString('en')} rows/s (one multi-row upsert per 1,000)`}; tables and indexes ${(Number(rows[0].n) / 1e6).toFixed(0)} MB`);
    dbs.push(pdb);
  }
  [sqliteMs, pgMs = null] = await timeAll(dbs);
  const again = [];
  for (const d of dbs) again.push(Math.round(await refill(d)).toLocaleString('en'));
  lines.push(`Re-upsert of 10,000 unchanged businesses (batches of 1,000): SQLite ${again[0]} rows/s${again[1] ? `, PostgreSQL ${again[1]} rows/s` : ''}`);
} finally {
  await sqlite.close();
  await pg?.close();
  if (!KEEP) rmSync(dir, { recursive: true, force: true });
}
lines.push(await osmRate());

const rowsOut = SEARCHES.map(([name], i) => [name, sqliteMs[i].toFixed(2), (sqliteMs[i] / sqliteMs[0]).toFixed(1) + '×',
  ...(pgMs ? [pgMs[i].toFixed(2), (pgMs[i] / sqliteMs[i]).toFixed(2) + '×'] : [])]);
const head = ['search (limit 10)', 'SQLite p50 ms', 'vs baseline', ...(pgMs ? ['PostgreSQL p50 ms', 'PostgreSQL / SQLite'] : [])];
const text = `# Business database (issue 13)

\`node bin/run-ts.js bench/businesses.bench.ts --rows ${ROWS}\`: ${ROWS.toLocaleString('en')} generated businesses (bench/business-fixture.ts, seed 42:
15 cities in 5 countries, 30 types), one owner; p50 of ${RUNS} runs (${SEARCHES.filter((s) => s[2]).map((s) => `${s[2]} for "${s[0]}"`).join(', ')}), alternately from
the first page and from after the 200th match (a cursor). Load average at start ${load0.toFixed(2)}, at end ${loadavg()[0].toFixed(2)}.

${table(head, rowsOut)}

${lines.map((l) => `- ${l}`).join('\n')}
`;
process.stdout.write(text);
if (!KEEP && !PG_SCHEMA) writeSection('docs/performance/businesses.md', text);
