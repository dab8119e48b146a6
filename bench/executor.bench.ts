/**
 * Executor benchmark, on the harness of /work/shared/notes/perf-baselines.md: a loopback server
 * process serves `)]}'\n` + the real map search capture for every URL; each client is a fresh
 * process; runs are interleaved by repetition; 3 reps; medians.
 *
 *   (a) undici.request + JSON.parse + count [0][1][i][14]              — the baseline
 *   (b) @crawlee/http HttpCrawler doing the same (min = max = desired concurrency), on the same N;
 *       its timed run includes its start-up and teardown, its steady rate is reported beside it
 *   (c) trawl Executor (called as the runner calls it: session and abort signal per work item)
 *       + the maps-search adapter's parse → complete place records
 *   (c0) trawl Executor + the same JSON.parse count as (a): the executor's own overhead
 * plus the search parser alone (MB/s) against JSON.parse alone.
 *
 * Run: node bin/run-ts.js bench/executor.bench.ts   (FIXTURES_DIR, BENCH_REPS, BENCH_C, BENCH_SCALE)
 * One file, three roles (--role=server|client|parser); the default role orchestrates.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixturePath } from '../src/sources/_kit/fixtures.ts';
import { median } from './lib.ts';

const SELF = fileURLToPath(import.meta.url);
const ROOT = path.resolve(path.dirname(SELF), '..');
const FIXTURE = fixturePath('google-maps', 'search_tbm-map_coffee_2024-12.json');
const args = Object.fromEntries(process.argv.slice(2).map((s) => s.replace(/^--/, '').split('=')));
const role = args.role ?? 'main';

/** Same extraction as the anchors' common.mjs: strip the first line, parse, count places. */
function extractPlaces(text: string): number {
  const j = JSON.parse(text.slice(text.indexOf('\n') + 1));
  const arr = j[0][1];
  let k = 0;
  for (let i = 0; i < arr.length; i++) if (arr[i] && arr[i][14]) k++;
  return k;
}

/**
 * CPU time (ms) of this process's main thread, from /proc (Linux; null elsewhere). The process
 * total also holds V8's helper threads (parallel scavenges, concurrent marking, optimising
 * compiles): the split shows whether a client pays on its own thread or beside it.
 */
function mainThreadCpuMs(): number | null {
  try {
    const st = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100; // utime + stime, in USER_HZ (100) ticks
  } catch {
    return null;
  }
}

function body(): Buffer {
  return Buffer.concat([Buffer.from(")]}'\n"), fs.readFileSync(FIXTURE)]);
}

// ---------------------------------------------------------------- server role
async function server(): Promise<void> {
  const json = body();
  let requests = 0;
  let connections = 0;
  const srv = http.createServer((req, res) => {
    if (req.url === '/__stats') {
      const b = JSON.stringify({ requests, connections });
      requests = 0;
      connections = 0;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(b) });
      return res.end(b);
    }
    requests++;
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': json.length });
    res.end(json);
  });
  srv.on('connection', () => connections++);
  srv.keepAliveTimeout = 60_000;
  srv.listen(0, '127.0.0.1', () => {
    const { port } = srv.address() as { port: number };
    process.stdout.write(`listening ${port} ${json.length}\n`);
  });
  process.on('SIGTERM', () => srv.close(() => process.exit(0)));
}

// ---------------------------------------------------------------- client role
async function client(): Promise<void> {
  const mode = args.mode;
  const n = Number(args.n);
  const c = Number(args.c);
  const base = args.base;
  let places = 0;
  let complete = 0;
  let bytes = 0;
  let errors = 0;
  let next = 1;
  let secs = 0;
  let steadyPagesPerSec: number | null = null;
  // Client CPU time of the timed section: far less disturbed than wall time when the box is shared.
  let cpu0 = process.cpuUsage();
  let cpu1 = { user: 0, system: 0 };
  let main0: number | null = null;
  let main1: number | null = null;
  const pool = async (one: (i: number, w: number) => Promise<void>) => {
    const worker = async (w: number) => {
      while (next <= n) {
        const i = next++;
        try {
          await one(i, w);
        } catch (e) {
          if (errors++ < 3) console.error(e);
        }
      }
    };
    const t0 = performance.now();
    cpu0 = process.cpuUsage();
    main0 = mainThreadCpuMs();
    await Promise.all(Array.from({ length: c }, (_, w) => worker(w)));
    secs = (performance.now() - t0) / 1000;
    cpu1 = process.cpuUsage(cpu0);
    main1 = mainThreadCpuMs();
  };

  if (mode === 'undici') {
    const { request } = await import('undici');
    await pool(async (i) => {
      const { headers, body: b } = await request(`${base}/q/${i}`);
      const text = await b.text(); // read before `places +=`, or concurrent updates get lost
      bytes += Number(headers['content-length']);
      places += extractPlaces(text);
    });
  } else if (mode === 'crawlee') {
    process.env.CRAWLEE_STORAGE_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-crawlee-'));
    const { HttpCrawler, Configuration, log } = await import('@crawlee/http');
    // First handler start to last handler end: the rate without Crawlee's own start-up (enqueueing
    // the N requests, starting the pool) and teardown, which the timed run includes.
    let first: number | undefined;
    let last = 0;
    log.setLevel(log.LEVELS.WARNING);
    Configuration.getGlobalConfig().set('persistStorage', false);
    const crawler = new HttpCrawler({
      minConcurrency: c,
      maxConcurrency: c,
      autoscaledPoolOptions: { desiredConcurrency: c, minConcurrency: c, maxConcurrency: c, maybeRunIntervalSecs: 0.05 },
      maxRequestRetries: 0,
      requestHandlerTimeoutSecs: 60,
      async requestHandler({ body: b, response }) {
        first ??= performance.now();
        bytes += Number(response.headers['content-length']);
        places += extractPlaces(b.toString('utf8'));
        last = performance.now();
      },
    });
    const urls = Array.from({ length: n }, (_, i) => `${base}/q/${i + 1}`);
    const t0 = performance.now();
    cpu0 = process.cpuUsage();
    main0 = mainThreadCpuMs();
    const stats = await crawler.run(urls, { waitBetweenBatchesMillis: 0 });
    secs = (performance.now() - t0) / 1000;
    cpu1 = process.cpuUsage(cpu0);
    main1 = mainThreadCpuMs();
    errors += stats.requestsFailed;
    steadyPagesPerSec = first === undefined ? 0 : n / ((last - first) / 1000);
    fs.rmSync(process.env.CRAWLEE_STORAGE_DIR, { recursive: true, force: true });
  } else if (mode === 'trawl' || mode === 'trawl-json') {
    const { Executor } = await import('../src/fetch/executor.ts');
    const { adapter: mapsSearchAdapter } = await import('../src/sources/maps-search/adapter.ts');
    const ex = new Executor({ allowPrivateTargets: true, perHostConcurrency: c, retries: 0 });
    const ctx = { query: 'coffee', params: { limit: 20 } };
    const planned = mapsSearchAdapter.plan(ctx)[0];
    const sessions = Array.from({ length: c }, (_, w) => ex.sessionFor(`work-item-${w}`));
    await pool(async (i, w) => {
      const step = { ...planned, url: `${base}/q/${i}` };
      // As the runner calls it: each work item has its own AbortController (cancel, lease loss).
      const item = new AbortController();
      const res = await ex.run(step, sessions[w], item.signal);
      bytes += Number(res.headers['content-length']); // as (a) does; no extra scan of the body
      if (mode === 'trawl-json') {
        places += extractPlaces(res.body);
        return;
      }
      const out = mapsSearchAdapter.parse(step, res, ctx);
      places += out.records.length;
      for (const r of out.records) if (r.name && r.place_id && r.latitude !== null && r.query === 'coffee') complete++;
    });
    await ex.close();
  } else {
    throw new Error(`unknown mode ${mode}`);
  }
  const rssMB = process.resourceUsage().maxRSS / 1024;
  console.log(JSON.stringify({ mode, n, c, secs: +secs.toFixed(3), pagesPerSec: +(n / secs).toFixed(1), MBps: +(bytes / 1e6 / secs).toFixed(1), places, complete, errors, rssMB: Math.round(rssMB), cpuMsPerPage: +((cpu1.user + cpu1.system) / 1000 / n).toFixed(3), steadyPagesPerSec: steadyPagesPerSec === null ? null : +steadyPagesPerSec.toFixed(1), mainCpuMsPerPage: main0 === null || main1 === null ? null : +((main1 - main0) / n).toFixed(3) }));
}

// ---------------------------------------------------------------- parser role
async function parserAlone(): Promise<void> {
  const { parseSearchBody } = await import('../src/sources/_maps/search-body.ts');
  const text = body().toString('utf8');
  const time = (f: () => void, iters: number) => {
    for (let i = 0; i < 30; i++) f(); // warm-up: JIT and shapes
    const t0 = performance.now();
    for (let i = 0; i < iters; i++) f();
    return (performance.now() - t0) / iters;
  };
  const reps = Number(process.env.BENCH_REPS ?? 3);
  const rows: Array<{ parseMs: number; jsonMs: number }> = [];
  for (let r = 0; r < reps; r++) {
    rows.push({ parseMs: time(() => parseSearchBody(text, { query: 'coffee' }), 150), jsonMs: time(() => extractPlaces(text), 150) });
  }
  console.log(JSON.stringify({ bytes: Buffer.byteLength(text), rows, records: parseSearchBody(text, { query: 'coffee' }).length }));
}

// ---------------------------------------------------------------- orchestrator
async function main(): Promise<void> {
  if (!fs.existsSync(FIXTURE)) {
    console.log(`SKIP executor bench: fixture not found at ${FIXTURE} (set FIXTURES_DIR)`);
    return;
  }
  const reps = Number(process.env.BENCH_REPS ?? 3);
  const c = Number(process.env.BENCH_C ?? 10);
  const scale = Number(process.env.BENCH_SCALE ?? 1);
  const tsx = ['--import', 'tsx'];
  const srv = spawn(process.execPath, [...tsx, SELF, '--role=server'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    srv.stdout!.once('data', (d: Buffer) => {
      const m = /listening (\d+)/.exec(d.toString());
      if (m) resolve(Number(m[1]));
      else reject(new Error(`server said ${d}`));
    });
    srv.once('exit', (code) => reject(new Error(`server exited ${code}`)));
  });
  const base = `http://127.0.0.1:${port}`;
  // A fresh connection each time: a kept-alive one idles through a whole client run and may be
  // closed by the server's keep-alive timeout just as it is reused (a Crawlee run takes over 60 s
  // on a loaded box).
  const stats = () => new Promise<{ requests: number; connections: number }>((resolve, reject) => {
    http.get(`${base}/__stats`, { agent: false }, (res) => {
      let b = '';
      res.on('data', (d) => (b += d)).on('end', () => resolve(JSON.parse(b))).on('error', reject);
    }).on('error', reject);
  });
  const configs = [
    // Every client does the same work: the same N pages (a fresh process pays its JIT warm-up once,
    // so a shorter run would charge a client more start-up per page).
    { mode: 'undici', n: Math.round(1500 * scale) },
    { mode: 'crawlee', n: Math.round(1500 * scale) },
    { mode: 'trawl', n: Math.round(1500 * scale) },
    { mode: 'trawl-json', n: Math.round(1500 * scale) },
  ];
  const results = new Map<string, Array<Record<string, number>>>();
  const t0 = performance.now();
  try {
    for (let rep = 1; rep <= reps; rep++) {
      for (const cfg of configs) {
        await stats();
        const r = spawnSync(process.execPath, [...tsx, SELF, '--role=client', `--mode=${cfg.mode}`, `--n=${cfg.n}`, `--c=${c}`, `--base=${base}`], { encoding: 'utf8', cwd: ROOT, timeout: 600_000 });
        const s = await stats();
        let row: Record<string, number>;
        try {
          row = JSON.parse(r.stdout.trim().split('\n').pop()!);
        } catch {
          throw new Error(`client ${cfg.mode} failed: ${r.stdout}\n${r.stderr}`);
        }
        const ok = row.places === 20 * cfg.n && row.errors === 0 && s.requests === cfg.n && (cfg.mode !== 'trawl' || row.complete === 20 * cfg.n);
        if (!ok) throw new Error(`client ${cfg.mode} wrong result: ${JSON.stringify(row)} server ${JSON.stringify(s)}\n${r.stderr}`);
        row.connections = s.connections - 1; // less the stats request's own connection
        process.stderr.write(`rep ${rep} ${cfg.mode}: ${row.pagesPerSec} p/s, ${row.rssMB} MB\n`);
        if (!results.has(cfg.mode)) results.set(cfg.mode, []);
        results.get(cfg.mode)!.push(row);
      }
    }
  } finally {
    srv.kill('SIGTERM');
  }
  const pr = spawnSync(process.execPath, [...tsx, SELF, '--role=parser'], { encoding: 'utf8', cwd: ROOT });
  const parser = JSON.parse(pr.stdout.trim().split('\n').pop()!) as { bytes: number; rows: Array<{ parseMs: number; jsonMs: number }>; records: number };

  const med = (mode: string, k: string) => median(results.get(mode)!.map((r) => r[k]));
  const a = med('undici', 'pagesPerSec');
  const b = med('crawlee', 'pagesPerSec');
  const label: Record<string, string> = {
    undici: '(a) undici.request + JSON.parse (baseline)',
    crawlee: '(b) @crawlee/http HttpCrawler + JSON.parse',
    trawl: '(c) trawl Executor + maps-search parse (complete records)',
    'trawl-json': '(c0) trawl Executor + JSON.parse (executor overhead only)',
  };
  console.log(`\nExecutor bench — ${os.cpus().length} vCPU, Node ${process.version}, C=${c}, ${reps} reps interleaved, body ${parser.bytes} B, ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
  const ca = med('undici', 'cpuMsPerPage');
  const cb = med('crawlee', 'cpuMsPerPage');
  console.log('| client | N | pages/s median (min–max) | MB/s | vs (a) | vs (b) | client CPU ms/page median | of which main thread | CPU-based vs (a) | CPU-based vs (b) | peak RSS MB median (max) | conns |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const cfg of configs) {
    const rows = results.get(cfg.mode)!;
    const p = rows.map((r) => r.pagesPerSec);
    const m = median(p);
    console.log(`| ${label[cfg.mode]} | ${cfg.n} | ${m} (${Math.min(...p)}–${Math.max(...p)}) | ${med(cfg.mode, 'MBps')} | ${(m / a).toFixed(2)} | ${(m / b).toFixed(2)} | ${med(cfg.mode, 'cpuMsPerPage').toFixed(2)} | ${rows.every((r) => Number.isFinite(r.mainCpuMsPerPage)) ? med(cfg.mode, 'mainCpuMsPerPage').toFixed(2) : '–'} | ${(ca / med(cfg.mode, 'cpuMsPerPage')).toFixed(2)} | ${(cb / med(cfg.mode, 'cpuMsPerPage')).toFixed(2)} | ${med(cfg.mode, 'rssMB')} (${Math.max(...rows.map((r) => r.rssMB))}) | ${med(cfg.mode, 'connections')} |`);
  }
  const parseMs = median(parser.rows.map((r) => r.parseMs));
  const jsonMs = median(parser.rows.map((r) => r.jsonMs));
  console.log(`\nParser alone (one core, warm, median of ${parser.rows.length}): maps-search parseSearchBody ${parseMs.toFixed(2)} ms/page = ${(parser.bytes / 1e6 / (parseMs / 1000)).toFixed(1)} MB/s (${parser.records} records); JSON.parse + count ${jsonMs.toFixed(2)} ms/page = ${(parser.bytes / 1e6 / (jsonMs / 1000)).toFixed(1)} MB/s; ratio ${(parseMs / jsonMs).toFixed(2)}x`);
  const c0 = med('trawl-json', 'pagesPerSec');
  const cc = med('trawl', 'pagesPerSec');
  const ccpu = med('trawl', 'cpuMsPerPage');
  const c0cpu = med('trawl-json', 'cpuMsPerPage');
  console.log(`\nTargets (wall pages/s): (c) >= 0.80 x (a): ${(cc / a).toFixed(2)} ${cc / a >= 0.8 ? 'MET' : 'NOT MET'}; (c) >= 2 x (b): ${(cc / b).toFixed(2)} ${cc / b >= 2 ? 'MET' : 'NOT MET'}; executor alone (c0)/(a): ${(c0 / a).toFixed(2)}`);
  console.log(`Targets (CPU per page): (c) vs (a): ${(ca / ccpu).toFixed(2)} ${ca / ccpu >= 0.8 ? 'MET' : 'NOT MET'}; (c) vs (b): ${(cb / ccpu).toFixed(2)} ${cb / ccpu >= 2 ? 'MET' : 'NOT MET'}; executor alone (c0) vs (a): ${(ca / c0cpu).toFixed(2)}`);
  const bs = med('crawlee', 'steadyPagesPerSec');
  console.log(`Crawlee's timed run includes its start-up (enqueueing ${configs[1].n} requests, starting the autoscaled pool) and teardown; without them (first handler start to last handler end) it ran ${bs} pages/s, and (c) against that: ${(cc / bs).toFixed(2)} x.`);
  console.log(`Load average at the end: ${os.loadavg().map((x) => x.toFixed(1)).join(' ')} (${os.cpus().length} vCPU)`);
}

if (role === 'server') await server();
else if (role === 'client') await client();
else if (role === 'parser') await parserAlone();
else await main();
