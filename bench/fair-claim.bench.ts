/**
 * The fair claim against the backlog (issue 39, item 2), on both stores: with 10, 10,000 and
 * 1,000,000 queued items (20 requests of 4 accounts, the first fifth of each request's items done),
 *   claim ms     one claim of 16 items (then handed back), median and max of 20, in this process;
 *   /health      p50/p99/max of a probe every 5 ms (bench/probe.ts, its own process) for 5 s while a
 *                `trawl serve` with workers (CONCURRENCY 16, the test adapter, 1-record queries) claims
 *                and completes items of that backlog.
 * Before (the issue, SQLite): 2.65 s a claim and /health 3-5 s at 1 M queued. Target: /health p99
 * < 100 ms at 1 M. PostgreSQL runs when TEST_DATABASE_URL is set (a scratch schema). SIZES=10,10000,
 * STORES=sqlite,postgres choose.
 * Run: node bin/run-ts.js bench/fair-claim.bench.ts   (prints the table; --write: docs/performance/fair-claim.md)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProcess, stop, table, writeSection, sleep } from './lib.ts';
import { healthCells, pct, startProbe } from './responsive-lib.ts';
import { openSqliteStore } from '../src/store/sqlite/store.ts';
import { openScratchPostgresStore, pgTestUrl } from '../src/store/postgres/testing.ts';
import type { Store } from '../src/store/contract.ts';

const SIZES = (process.env.SIZES ?? '10,10000,1000000').split(',').map(Number);
const STORES = (process.env.STORES ?? 'sqlite,postgres').split(',');
const REQUESTS = 20;
const rows: (string | number)[][] = [];

const account = (i: number) => ({ id: `acc${i}`, name: `acc${i}`, balanceMicros: 1e15, creditLimitMicros: 0, currency: 'usd', pastDue: false, webhookSecret: 's', webhookUrl: null, ratePerSec: 1e6, burst: 1e6 });

/** The backlog: REQUESTS requests round-robin over 4 accounts, `n` items in all, the first fifth of each done. */
function fillSql(n: number, series: (to: number) => string, text: (e: string) => string) {
  const per = Math.max(1, Math.ceil(n / REQUESTS));
  return [
    `INSERT INTO requests (id, account_id, endpoint, params, status, queries_total, product, unit, unit_price_micros, empty_costs_one, drop_duplicates, created_at)
     SELECT ${text("'req-' || lpad(i::text, 4, '0')")}, ${text("'acc' || (i % 4)")}, '/maps/search', '{}', 'Pending', ${per}, 'p', 'place', 0, ${text('false')}, ${text('false')}, 1000 + i FROM ${series(REQUESTS - 1)}`,
    `INSERT INTO work_items (id, request_id, query_index, query, state, max_attempts, run_after)
     SELECT r.id || ':' || i, r.id, i, 'n=1', CASE WHEN i < ${Math.floor(per / 5)} THEN 'done' ELSE 'queued' END, 1, 0 FROM requests r, ${series(per - 1)}`,
  ];
}

async function measure(store: Store, label: string, n: number, env: Record<string, string>) {
  const times: number[] = [];
  for (let k = 0; k < 20; k++) {
    const t = performance.now();
    await store.claimItems('bench', 16, 60_000, Date.now());
    times.push(performance.now() - t);
    await store.releaseItems('bench', Date.now());
  }
  const s = await startProcess(['bin/run-ts.js', 'test/support/serve-test.ts'], { PORT: '0', CONCURRENCY: '16', ...env });
  const probe = await startProbe(`${s.info.url}/health`);
  try {
    await sleep(1_000);
    const ms = await probe.measure(() => sleep(5_000));
    rows.push([label, n.toLocaleString('en'), `${pct(times, 0.5).toFixed(1)} / ${Math.max(...times).toFixed(1)}`, ...healthCells(ms)]);
    console.log(rows[rows.length - 1].join(' | '));
  } finally {
    probe.close();
    await stop(s.child);
  }
}

async function main() {
  const load0 = loadavg()[0];
  for (const n of SIZES) {
    const dir = mkdtempSync(join(tmpdir(), 'trawl-fair-'));
    if (STORES.includes('sqlite')) try {
      const store = await openSqliteStore(join(dir, 'trawl.db'));
      for (let i = 0; i < 4; i++) await store.createAccount(account(i));
      for (const sql of fillSql(n, (to) => `(WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < ${to}) SELECT i FROM s)`,
        (e) => e.replace("lpad(i::text, 4, '0')", "printf('%04d', i)").replace(/^(true|false)$/, (b) => (b === 'true' ? '1' : '0')))) store.db.exec(sql);
      await measure(store, 'sqlite', n, { DATA_DIR: dir });
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const url = pgTestUrl();
    if (url && STORES.includes('postgres')) {
      const store = await openScratchPostgresStore(url);
      try {
        for (let i = 0; i < 4; i++) await store.createAccount(account(i));
        // One connection without the store's statement time-out: a million rows take longer.
        const c = await store.pool.connect();
        try {
          await c.query('SET statement_timeout = 0');
          for (const sql of fillSql(n, (to) => `generate_series(0, ${to}) AS s(i)`, (e) => e)) await c.query(sql);
          await c.query('ANALYZE');
        } finally {
          c.release();
        }
        await measure(store, 'postgres', n, { DATA_DIR: mkdtempSync(join(tmpdir(), 'trawl-fair-pg-')), DATABASE_URL: url, DATABASE_SCHEMA: store.schema! });
      } finally {
        await store.close();
      }
    }
  }
  const text = `# Fair claim against the backlog (issue 39)\n\nLoad average ${load0.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end (a loaded box).\n\n`
    + table(['store', 'queued', 'claim of 16, ms (median / max)', '/health p50', '/health p99', '/health max'], rows);
  console.log(text);
  if (process.argv.includes('--write')) writeSection('docs/performance/fair-claim.md', text);
}

await main();
