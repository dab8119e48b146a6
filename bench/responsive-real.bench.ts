/**
 * Responsiveness with the real service (issue 15), continuing bench/responsive.bench.ts: `trawl serve`
 * (as `npm start` runs it: the production bundle, built first; SERVER=tsx: the sources; real adapters, SQLite, the executor replaying a HAR built at run time from the real
 * map search capture) while a `/health` probe runs every 5 ms from another process (bench/probe.ts).
 * One scenario at a time, then all at once:
 *   map search at full speed   C=16 clients of GET /maps/search?query=coffee&limit=20&async=false for D s;
 *                              before = PARSE_THREADS=0
 *   10k-row export, per format a task of 500 replayed map searches x 20 places (10,000 rows),
 *                              from POST /tasks to the file; before = EXPORT_THREADS=0
 *   cold first lookup          the first call of each lookup endpoint on a fresh process;
 *                              before = LOOKUP_THREADS=0
 *   all together               map search at full speed + 4 streamed GETs of a 1000 x 500 result +
 *                              the janitor purging 100k requests + one export task per format +
 *                              the cold lookups, on one process
 * Throughput costs: map search queries/s alone and together; export task wall time before/after;
 * a 1000-query /directory-phones request (warm) on the lookup thread vs on the API's thread.
 *
 * Run: node bin/run-ts.js bench/responsive-real.bench.ts   (D=8 C=16 PURGE_N=100000; ONLY=map: map search alone; ONLY=all: all together alone;
 * SERVER_NODE_ARGS, e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`, reach the server after the V8 flags npm start passes, which
 * they may override: `--max-semi-space-size=16`, src/ops/serve-flags.ts; PROBE_LOG: bench/probe.ts)
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { openSqliteStore } from '../src/store/sqlite/store.ts';
import { createAccount } from '../src/app/accounts.ts';
import { settingsFromEnv } from '../src/config/settings.ts';
import { fixturePath, fixtureMissing } from '../src/sources/_kit/fixtures.ts';
import { buildServed, listening, serveArgs, sleep, stop, table, writeSection } from './lib.ts';
import { addBigResult, addExpiredRequests, pct, startProbe } from './responsive-lib.ts';

const D = Number(process.env.D ?? 8) * 1000;
const C = Number(process.env.C ?? 16);
const PURGE_N = Number(process.env.PURGE_N ?? 100_000);
/** ONLY=map: the map search scenarios alone; ONLY=all: "all together" alone (no table written). */
const ONLY = process.env.ONLY;
const ONLY_MAP = ONLY === 'map';
const CAPTURE = fixturePath('google-maps', 'search_tbm-map_coffee_2024-12.json');
const FORMATS = ['xlsx', 'csv', 'json', 'parquet'] as const;
const LOOKUPS = [
  ['/reverse-geocoding', '40.7624284,-73.973794'], ['/directory-phones', '+4915123456789'],
  ['/email-validator', 'jane@example.com'], ['/emails-finder', 'Jane Doe example.com'],
] as const;

interface Server { url: string; key: string; child: ChildProcess }

/** A data dir with an account (and its key), optionally the big result and the janitor's backlog. */
async function prepare(dir: string, o: { big?: boolean; expired?: boolean } = {}): Promise<string> {
  const store = await openSqliteStore(join(dir, 'trawl.db'));
  const s = settingsFromEnv({});
  const { account, apiKey } = await createAccount(store, { ...s, defaultRatePerSec: 1e6, defaultBurst: 1e6 }, { name: 'bench', balanceMicros: 1e15 });
  if (o.big) await addBigResult(store, account.id);
  if (o.expired) addExpiredRequests(store, account.id, PURGE_N);
  await store.close();
  return apiKey;
}

async function serve(dir: string, key: string, har: string, env: Record<string, string> = {}): Promise<Server> {
  // SERVER_NODE_ARGS after the service's V8 flags: they may override them (bench/lib.ts serveArgs).
  const served = { ...process.env, DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', BASE_URL: '', REPLAY_HAR: har, DNS_SERVERS: '127.0.0.1:9', ...env };
  const child = spawn(process.execPath, serveArgs(undefined, process.env.SERVER_NODE_ARGS?.split(' ').filter(Boolean)), {
    env: served,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return { url: await listening(child, { env: served }), key, child };
}

const get = (s: Server, path: string) => fetch(`${s.url}${path}`, { headers: { 'x-api-key': s.key } });

/** C clients of async map searches for D ms; queries/s. */
async function mapSearch(s: Server, ms = D): Promise<number> {
  let n = 0;
  const end = performance.now() + ms;
  const t = performance.now();
  await Promise.all(Array.from({ length: C }, async () => {
    while (performance.now() < end) {
      const r = await get(s, '/maps/search?query=coffee&limit=20&language=en&async=false');
      await r.arrayBuffer();
      if (r.status === 200) n++;
    }
  }));
  return n / ((performance.now() - t) / 1000);
}

/** One task of 500 replayed searches x 20 places exported as `format`; resolves at SUCCESS with its wall ms. */
async function exportTask(s: Server, format: string): Promise<number> {
  const t = performance.now();
  const r = await fetch(`${s.url}/tasks`, {
    method: 'POST', headers: { 'x-api-key': s.key, 'content-type': 'application/json' },
    body: JSON.stringify({ service_name: 'engine_maps_service_v2', queries: Array(500).fill('coffee'), limit: 20, language: 'en', settings: { output_extension: format } }),
  });
  const { id } = await r.json() as { id: string };
  for (;;) {
    await sleep(100);
    const list = await (await get(s, '/tasks?pageSize=50')).json() as { id: string; status: string }[] | { tasks?: { id: string; status: string }[] };
    const tasks = Array.isArray(list) ? list : list.tasks ?? [];
    const task = tasks.find((x) => x.id === id);
    if (task?.status === 'SUCCESS') return performance.now() - t;
    if (task && task.status !== 'PENDING' && task.status !== 'RUNNING') throw new Error(`task ${id} ended ${task.status}`);
  }
}

async function coldLookups(s: Server): Promise<number[]> {
  const ms: number[] = [];
  for (const [path, q] of LOOKUPS) {
    const t = performance.now();
    const r = await get(s, `${path}?query=${encodeURIComponent(q)}&async=false`);
    await r.arrayBuffer();
    ms.push(performance.now() - t);
  }
  return ms;
}

async function streams(s: Server): Promise<number> {
  let bytes = 0;
  await Promise.all(Array.from({ length: 4 }, async () => {
    const res = await get(s, '/requests/big-request');
    for await (const c of res.body as unknown as AsyncIterable<Uint8Array>) bytes += c.length;
  }));
  return bytes;
}

const rows: (string | number)[][] = [];
function report(name: string, ms: number[], note = '') {
  const p99 = pct(ms, 0.99); const max = Math.max(...ms);
  rows.push([name, ms.length, pct(ms, 0.5).toFixed(1), p99.toFixed(1), max.toFixed(0), p99 < 50 && max < 100 ? 'yes' : 'no', note]);
  console.log(rows[rows.length - 1].join(' | '));
}

async function main() {
  if (fixtureMissing(CAPTURE)) { console.log(`SKIP: ${fixtureMissing(CAPTURE)}`); return; }
  await buildServed();
  const load0 = loadavg()[0];
  const dir = mkdtempSync(join(tmpdir(), 'trawl-responsive-real-'));
  const { adapter } = await import('../src/sources/maps-search/adapter.ts');
  const { replayEntry } = await import('../test/support/replay.ts');
  const [step] = adapter.plan({ query: 'coffee', params: { limit: 20, language: 'en' } } as never);
  const har = join(dir, 'search.har');
  writeFileSync(har, JSON.stringify({ log: { version: '1.2', creator: { name: 'trawl-bench', version: '1' }, pages: [], entries: [replayEntry(step, `)]}'\n${readFileSync(CAPTURE, 'utf8')}`, 'application/json')] } }));
  let n = 0;
  const fresh = async (o: { big?: boolean; expired?: boolean } = {}, env: Record<string, string> = {}) => {
    const d = join(dir, `d${n++}`);
    const key = await prepare(d, o);
    const s = await serve(d, key, har, env);
    const probe = await startProbe(`${s.url}/health`);
    return { s, probe, close: async () => { probe.close(); await stop(s.child); } };
  };
  const costs: string[] = [];
  try {
    for (const [label, threads] of ONLY === 'all' ? [] : [['before (parse on the API thread)', '0'], ['after (parse thread)', '']] as const) {
      const { s, probe, close } = await fresh({}, threads ? { PARSE_THREADS: threads } : {});
      await sleep(500);
      if (!threads) report('idle', await probe.measure(() => sleep(2_000)));
      await mapSearch(s, 2_000); // warm: the adapter, the replay, the JIT
      let qps = 0;
      report(`map search at full speed (replay), ${label}`, await probe.measure(async () => { qps = await mapSearch(s); }), `${qps.toFixed(0)} queries/s, ${C} clients`);
      costs.push(`map search alone, ${label}: ${qps.toFixed(0)} queries/s`);
      await close();
    }
    if (ONLY_MAP) return;
    for (const [label, threads] of ONLY === 'all' ? [] : [['before (on the API thread)', '0'], ['after (export thread)', '1']] as const) {
      const { s, probe, close } = await fresh({}, { EXPORT_THREADS: threads });
      await mapSearch(s, 1_000);
      for (const f of FORMATS) {
        let ms = 0;
        report(`10k-row ${f} task (500 replayed searches + export), ${label}`, await probe.measure(async () => { ms = await exportTask(s, f); }), `task done in ${(ms / 1000).toFixed(1)} s`);
        costs.push(`${f} task ${label}: ${(ms / 1000).toFixed(1)} s`);
      }
      await close();
    }
    for (const [label, threads] of ONLY === 'all' ? [] : [['before (on the API thread)', '0'], ['after (lookup thread)', '1']] as const) {
      const { s, probe, close } = await fresh({}, { LOOKUP_THREADS: threads });
      await sleep(300);
      let ms: number[] = [];
      report(`cold first call of ${LOOKUPS.length} lookups, ${label}`, await probe.measure(async () => { ms = await coldLookups(s); }), LOOKUPS.map(([p], i) => `${p} ${ms[i].toFixed(0)} ms`).join(', '));
      const phones = Array.from({ length: 1000 }, (_, i) => `query=${encodeURIComponent(`+49151${String(1000000 + i)}`)}`).join('&');
      const t = performance.now();
      await (await get(s, `/directory-phones?${phones}&async=false`)).arrayBuffer();
      costs.push(`1000 phone lookups (warm), ${label}: ${(performance.now() - t).toFixed(0)} ms`);
      await close();
    }
    {
      const { s, probe, close } = await fresh({ big: true, expired: true }, { JANITOR_MS: '3000' });
      await mapSearch(s, 1_000);
      let qps = 0; let bytes = 0;
      const ms = await probe.measure(() => Promise.all([
        mapSearch(s, D * 2).then((q) => { qps = q; }),
        streams(s).then((b) => { bytes = b; }),
        ...FORMATS.map((f) => exportTask(s, f)),
        coldLookups(s),
      ]));
      report('all together', ms, `map search ${qps.toFixed(0)} queries/s; 4 GETs ${(bytes / 1e6).toFixed(0)} MB; janitor pass at 3 s; 4 export tasks; cold lookups`);
      costs.push(`map search together with everything: ${qps.toFixed(0)} queries/s`);
      await close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const md = table(['scenario', 'probes', 'p50 ms', 'p99 ms', 'max ms', 'p99 < 50 and max < 100', 'note'], rows);
  if (ONLY) { console.log(md); return; }
  writeSection('docs/performance/responsive-real-last-run.md', `# Responsiveness with the real service (issue 15)

\`node bin/run-ts.js bench/responsive-real.bench.ts\`: \`trawl serve\` with real adapters, map searches
replayed from the real capture, a \`/health\` probe every 5 ms from another process. Load average at
the start: ${load0.toFixed(1)} on 2 cores. Target: p99 < 50 ms and max < 100 ms.

${md}

Throughput:
${costs.map((c) => `- ${c}`).join('\n')}
`);
  console.log(md);
  console.log(costs.join('\n'));
}

await main();
