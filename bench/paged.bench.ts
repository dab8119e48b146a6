/**
 * Durable, streamed paged queries (issue 9): memory of the worker and the read of the result.
 *
 *  1. Worker (write path): a request of N queries x M records run through the real Runner and SQLite
 *     store, pages of 50 records served from memory (a constructed page body per step), 8 queries at
 *     a time, next_page_cursor signed on every record. Each variant runs in its own process; its peak
 *     RSS above its start is sampled every 20 ms. Streamed (an adapter without `finish`: each page is
 *     a stored chunk) against buffered (the same adapter with an identity `finish`: the query's
 *     records are held and written as one string), at 1000 x 500 and at 100 x 5,000 records.
 *  2. Reader: GET /requests/{id} of the 1000 x 500 result stored page by page (streamed) against the
 *     same result stored as one string per query (buffered), in alternation, each server in its own
 *     process: time and peak RSS above idle.
 *
 *     BEFORE=<checkout of an older commit, node_modules linked> (BEFORE_LABEL: its name) adds that code reading the buffered
 *     layout, so a change of the read path is compared before/after in the same run.
 *
 * Run: node bin/run-ts.js bench/paged.bench.ts   (REPS=3 by default)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { openSqliteStore } from '../src/store/sqlite/store.ts';
import { EmbeddedQueue } from '../src/engine/backends/embedded.ts';
import { Runner } from '../src/engine/runner.ts';
import type { Step, WebAdapter } from '../src/sources/_kit/adapter.ts';
import { median, rssKb, sleep, startProcess, stop, table, writeSection } from './lib.ts';

const REPS = Number(process.env.REPS ?? 3);
const PAGE = 50;
const ENDPOINT = '/bizdir-reviews';

const record = (q: string, i: number) => ({
  review_id: `${q}-r${i}`, business_name: `Business ${q}`, author_title: `Author ${i}`, review_rating: 1 + (i % 5),
  review_text: `Constructed review ${i} of ${q}: the coffee was good, the service friendly, and the place quiet enough to work.`,
  review_datetime_utc: '2026-01-02T03:04:05Z', review_timestamp: 1767323045, review_likes: i % 7, owner_answer: null,
  review_photos: ['https://example.com/p1.jpg'], review_tags: ['coffee', 'quiet'],
});

const pageStep = (query: string, page: number, perQuery: number): Step => ({ kind: 'page', url: `https://reviews.example/${encodeURIComponent(query)}?page=${page}`, expect: 'json', state: { page, perQuery } });

function adapter(buffered: boolean): WebAdapter {
  return {
    kind: 'web', endpoint: ENDPOINT,
    plan: ({ query, params }) => [pageStep(query, 0, Number((params as { limit: number }).limit))],
    parse: (step, res, { query }) => {
      const { page, perQuery } = step.state as { page: number; perQuery: number };
      return { records: JSON.parse(res.body), next: (page + 1) * PAGE < perQuery ? [pageStep(query, page + 1, perQuery)] : [] };
    },
    ...(buffered ? { finish: (records: Record<string, unknown>[]) => records } : {}),
  };
}

/** One variant in this process: prints {ms, startMb, peakMb} and leaves the store in `dir`. */
async function worker(dir: string, queries: number, perQuery: number, buffered: boolean, paged: boolean): Promise<void> {
  const store = await openSqliteStore(join(dir, 'trawl.db'));
  await store.createAccount({ id: 'bench', name: 'bench', balanceMicros: 1e15, creditLimitMicros: 0, currency: 'usd', pastDue: false, webhookSecret: 's', webhookUrl: null, ratePerSec: 1e6, burst: 1e6 });
  await store.createRequest({ id: 'big-request', accountId: 'bench', endpoint: ENDPOINT, params: { limit: perQuery }, queries: Array.from({ length: queries }, (_, i) => `q${i}`),
    webhook: null, product: 'p', unit: 'review', unitPriceMicros: 0, emptyCostsOne: false, dropDuplicates: false, taskId: null, maxAttempts: 1, createdAt: Date.now() });
  const a = adapter(buffered);
  const runner = new Runner({
    store, queue: new EmbeddedQueue(store), adapterFor: () => a, owner: 'w', leaseMs: 3_600_000, paged: () => paged,
    fetchStep: async (step) => {
      const { page } = step.state as { page: number };
      const q = decodeURIComponent(new URL(step.url).pathname.slice(1));
      const body = JSON.stringify(Array.from({ length: PAGE }, (_, i) => record(q, page * PAGE + i)));
      return { status: 200, url: step.url, headers: {}, body };
    },
  });
  global.gc?.();
  const start = process.memoryUsage().rss;
  let peak = start;
  const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 20);
  const t0 = performance.now();
  await Promise.all(Array.from({ length: 8 }, async () => {
    for (;;) {
      const [item] = await store.claimItems('w', 1, 3_600_000, Date.now());
      if (!item) return;
      await runner.run(item);
    }
  }));
  const ms = performance.now() - t0;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const row = await store.getRequest('big-request');
  if (row?.status !== 'Success' || row.records !== queries * perQuery) throw new Error(`bench request ended ${row?.status} with ${row?.records} records`);
  await store.close();
  process.stdout.write(`${JSON.stringify({ ms, startMb: start / 2 ** 20, peakMb: peak / 2 ** 20 })}\n`);
}

function runVariant(dir: string, queries: number, perQuery: number, buffered: boolean, paged: boolean): { ms: number; startMb: number; peakMb: number } {
  const r = spawnSync(process.execPath, ['--expose-gc', 'bin/run-ts.js', 'bench/paged.bench.ts'], {
    env: { ...process.env, PAGED_VARIANT: JSON.stringify({ dir, queries, perQuery, buffered, paged }) }, encoding: 'utf8', maxBuffer: 1 << 20,
  });
  if (r.status !== 0) throw new Error(`variant failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'trawl-paged-bench-'));
  try {
    // `read`: the two stores the read compares. Both without next_page_cursor, so both results are the
    // same bytes (a buffering adapter's records carry no runner cursor).
    const variants = [
      { name: 'streamed + next_page_cursor', queries: 1000, perQuery: 500, buffered: false, paged: true },
      { name: 'streamed', queries: 1000, perQuery: 500, buffered: false, paged: false, read: 'streamed' },
      { name: 'buffered', queries: 1000, perQuery: 500, buffered: true, paged: false, read: 'buffered' },
      { name: 'streamed + next_page_cursor', queries: 100, perQuery: 5000, buffered: false, paged: true },
      { name: 'buffered', queries: 100, perQuery: 5000, buffered: true, paged: false },
    ];
    const write: string[][] = [];
    const dirs: Record<string, string> = {};
    for (const v of variants) {
      const dir = join(root, `${write.length}`);
      if (v.read) dirs[v.read] = dir;
      const r = runVariant(dir, v.queries, v.perQuery, v.buffered, v.paged);
      write.push([`${v.name}, ${v.queries} x ${v.perQuery.toLocaleString('en')}`, `${(r.ms / 1000).toFixed(1)} s (${Math.round(v.queries * v.perQuery / (r.ms / 1000)).toLocaleString('en')} records/s)`,
        `${(r.peakMb - r.startMb).toFixed(0)} MB`, `${r.peakMb.toFixed(0)} MB`]);
      console.log(write[write.length - 1].join(' | '));
    }

    // The read: both layouts of the 1000 x 500 result, in alternation, a server process each.
    const servers: Record<string, Awaited<ReturnType<typeof startProcess>>> = {};
    const before = process.env.BEFORE;
    const layouts: [string, string, string][] = [['streamed', dirs.streamed, '.'], ['buffered', dirs.buffered, '.']];
    if (before) layouts.push(['buffered, code before', dirs.buffered, before]);
    for (const [name, dir, code] of layouts) {
      const s = await startProcess([join(code, 'bin/run-ts.js'), join(code, 'test/support/serve-test.ts')], { DATA_DIR: dir, PORT: '0', NO_WORKERS: '1' });
      const db = await openSqliteStore(join(dir, 'trawl.db'));
      db.db.prepare('UPDATE requests SET account_id = (SELECT account_id FROM api_keys LIMIT 1)').run();
      await db.close();
      await fetch(`${s.info.url}/health`);
      servers[name] = s;
    }
    await sleep(500);
    const idle = Object.fromEntries(Object.entries(servers).map(([n, s]) => [n, rssKb(s.child.pid!, 'VmRSS')]));
    const names = layouts.map((l) => l[0]);
    const times: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
    const bytes: Record<string, number> = {};
    for (let i = 0; i < REPS; i++) {
      for (const name of i % 2 ? [...names].reverse() : names) {
        const s = servers[name];
        const t = performance.now();
        const res = await fetch(`${s.info.url}/requests/big-request`, { headers: { 'x-api-key': s.info.key } });
        let n = 0;
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) n += chunk.length;
        times[name].push(performance.now() - t);
        bytes[name] = n;
      }
    }
    const peak = Object.fromEntries(Object.entries(servers).map(([n, s]) => [n, rssKb(s.child.pid!, 'VmHWM')]));
    for (const s of Object.values(servers)) await stop(s.child);
    const label: Record<string, string> = { streamed: 'page by page (streamed)', buffered: 'one string per query (buffered)', 'buffered, code before': `one string per query, read by the code of ${process.env.BEFORE_LABEL ?? before}` };
    const read = names.map((n) => [`GET, 1000 x 500 stored ${label[n]}`,
      `${median(times[n]).toFixed(0)} ms, ${(bytes[n] / 1e6).toFixed(0)} MB`, `${((peak[n] - idle[n]) / 1024).toFixed(0)} MB`,
      n === 'buffered' ? 'baseline' : `${(median(times[n]) / median(times.buffered)).toFixed(2)} x the buffered layout`]);
    const mdWrite = table(['worker run (records written through Runner + SQLite)', 'time', 'peak RSS above start', 'peak RSS'], write);
    const mdRead = table(['result read', 'time (median)', 'peak RSS above idle', 'ratio'], read);
    console.log(mdRead);
    writeSection('docs/performance/paged.md', `# Paged queries: worker memory and result reads

\`node bin/run-ts.js bench/paged.bench.ts\` (bench/paged.bench.ts). Pages of ${PAGE} constructed review records (about 430 bytes each)
are served from memory to the real Runner and SQLite store, 8 queries at a time (records of the variants
marked so carry a signed next_page_cursor); each worker variant runs in its own process, its RSS sampled
every 20 ms. Peak RSS above start includes SQLite's 64 MiB page cache. Times are one run each on a
shared box (noisy: compare memory, not seconds).
**Streamed** is an adapter without \`finish\` (each page checkpointed as a stored chunk, the worker holds one
page per running query); **buffered** is the same adapter with an identity \`finish\` (each page still
checkpointed, and the query's records held and written again as one string at its end: what adapters
that merge, like map search, do).

${mdWrite}

${mdRead}

The read streams both layouts the same way (src/delivery/shape.ts joins a query's parts without
building it as one string); ${REPS} alternating repetitions, medians. Raw read times (ms):
\`${JSON.stringify(Object.fromEntries(Object.entries(times).map(([k, v]) => [k, v.map(Math.round)])))}\`.
`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (process.env.PAGED_VARIANT) {
  const v = JSON.parse(process.env.PAGED_VARIANT) as { dir: string; queries: number; perQuery: number; buffered: boolean; paged: boolean };
  await worker(v.dir, v.queries, v.perQuery, v.buffered, v.paged);
  process.exit(0);
} else {
  await main();
}
