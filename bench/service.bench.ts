/**
 * CPU per query on the real service path (issue 15, goal 3). One `trawl serve` process (SQLite, real
 * adapters, the executor replaying a HAR built at run time from the real map search capture) is
 * driven over HTTP by a load process: each request is `GET /maps/search?query=coffee&limit=20&async=false`
 * (submit, queue, runner, executor, parse, store, then the stored result read back and sent, as
 * `GET /requests/{id}` sends it), C at a time. Measured on the server process only, from /proc:
 * CPU ms per query (all threads, and the main thread alone), and queries/s.
 *
 * The baseline in the same run, on the same number of queries and the same concurrency, is the
 * bench's own executor-only client: a fresh process running the same Executor (same replay) and the
 * same adapter parse, C at a time, nothing else (no HTTP, no store). Both warm up on W queries first.
 * Repetitions are interleaved (baseline, service, baseline, service ...); medians, and the paired
 * ratio per repetition. Target: >= 600 queries/s per process. Each repetition also runs the service
 * with PARSE_THREADS=0 (its parses on the API thread, as before the parse threads), and the floor: a
 * bare node:http server doing only the same fetch and parse, on the same parse threads, no store
 * (floorRole): what any server answering this query must do at least, under the same load.
 *
 * Run: node bin/run-ts.js bench/service.bench.ts   (N=3000 W=500 C=16 REPS=3; SERVER=tsx: the sources, else the bundle)
 * To compare builds or settings in one run, ARMS names the services to alternate instead, e.g. a bundle
 * of the code before a change (built with buildServer('dist/base')) against the current one:
 *   ARMS='[{"name":"before","server":"dist/base/trawl.js"},{"name":"after"},{"name":"after, no threads","env":{"PARSE_THREADS":"0"}}]'
 * (each arm: name, optional server script, env, its warm-up queries `w` (default W), node args: a
 * service's come after the V8 flags `npm start` passes, src/ops/serve-flags.ts, and override them); the
 * table then has one column per arm and its ratio to the first arm, paired per repetition.
 * An arm on PostgreSQL (DATABASE_URL in its env) also reports the database server's CPU a query over the
 * same window (bench/pg-cpu.ts): all its processes, and the backends of the measured service alone; it
 * shares the cores and is not in the service's own CPU. SERVER_NODE_ARGS='--import tsx --import
 * ./bench/pg-statements.ts' with PG_STATEMENTS_OUT in an arm's env counts its statements by kind with
 * each one's server CPU (after the warm-up); './bench/sqlite-statements.ts' with SQLITE_STATEMENTS_OUT counts a
 * SQLite arm's statements by text; './bench/parse-placement.js' with PARSE_PLACEMENT_OUT counts where an arm parses its pages;
 * './bench/gc-isolates.js' with GC_ISOLATES_OUT each isolate's collections (scavenges, promoted bytes, mark-compacts).
 * One file, three roles: --role=executor (the baseline client), --role=floor and --role=load (the HTTP load).
 * CPU is also counted per thread (bench/lib.ts procThreadsMs): the API thread, each worker thread by
 * its job module (named by bench/thread-names.js, preloaded into every server), V8's platform threads
 * (garbage collection, compilation), libuv's pool; the table below the measures shows each arm's.
 * Each server is measured once its start-up work has settled (`settled`: the submit-check thread's
 * warming, seconds of CPU, fell inside the measured queries before). The floor parses where the
 * floor did when its bound was set (past the parse threads' queue only); FLOOR_PLACEMENT=service in
 * an arm's env gives it the service's placement rule (src/engine/parse-thread.ts).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { fixturePath, fixtureMissing } from '../src/sources/_kit/fixtures.ts';
import { buildServed, listening, median, procCpuMs, procThreadsMs, serveArgs, sleep, table, writeSection } from './lib.ts';
import { pgCpuMs } from './pg-cpu.ts';
import type { FetchedResponse, ParseResult, QueryContext, Step } from '../src/sources/_kit/adapter.ts';

const SELF = fileURLToPath(import.meta.url);
/** Preloaded into every server (the floor too): names its worker threads for the per-thread CPU. */
const THREAD_NAMES = fileURLToPath(new URL('./thread-names.js', import.meta.url));
const CAPTURE = fixturePath('google-maps', 'search_tbm-map_coffee_2024-12.json');
const N = Number(process.env.N ?? 3000);
const W = Number(process.env.W ?? 500);
const C = Number(process.env.C ?? 16);
const REPS = Number(process.env.REPS ?? 3);
const QUERY = 'coffee';
const PARAMS = { limit: 20, language: 'en' };
const args = Object.fromEntries(process.argv.slice(2).map((s) => s.replace(/^--/, '').split('=')));

/** Runs `one` n times, c at a time. */
async function pool(n: number, c: number, one: () => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: c }, async () => {
    while (next++ < n) await one();
  }));
}

// ------------------------------------------------------------ baseline: executor + parse only
/**
 * The executor (replaying REPLAY_HAR) and one query's fetch and parse as the runner calls them: a
 * session and an abort signal per work item, released after. `parse`: where the parse runs (default:
 * here). Shared by the baseline client and the floor.
 */
async function fetchAndParse() {
  const { Executor } = await import('../src/fetch/executor.ts');
  const { executorSettingsFromEnv } = await import('../src/fetch/settings.ts');
  const { adapter } = await import('../src/sources/maps-search/adapter.ts');
  const ex = new Executor(executorSettingsFromEnv(process.env));
  let k = 0;
  type Parse = (step: Step, res: FetchedResponse, ctx: QueryContext) => ParseResult | Promise<ParseResult>;
  const one = async (query: string, parse: Parse = (step, res, ctx) => adapter.parse(step, res, ctx)) => {
    const ctx = { query, params: PARAMS } as QueryContext;
    const [step] = adapter.plan(ctx);
    const key = `item-${k++}`;
    try {
      return await parse(step, await ex.run(step, ex.sessionFor(key), new AbortController().signal), ctx);
    } finally {
      ex.releaseSession(key);
    }
  };
  return { one, adapter, close: () => ex.close() };
}

async function executorRole(): Promise<void> {
  const q = await fetchAndParse();
  let places = 0;
  const one = async () => {
    const { records } = await q.one(QUERY);
    places += records.length;
  };
  await pool(W, C, one);
  places = 0;
  const c0 = procCpuMs(process.pid);
  const t0 = performance.now();
  await pool(N, C, one);
  const secs = (performance.now() - t0) / 1000;
  const c1 = procCpuMs(process.pid);
  await q.close();
  if (places !== 20 * N) throw new Error(`executor client: ${places} places for ${N} queries`);
  console.log(JSON.stringify({ qps: N / secs, cpuMs: (c1.all - c0.all) / N, mainMs: (c1.main - c0.main) / N }));
}

// ------------------------------------------------------------ the floor: a bare server doing the fetch and the parse only
/**
 * What any server answering this query over HTTP must do at least, in this process model: node:http,
 * the same Executor (same replay) and the same adapter parse on the same parse threads as the service
 * (PARSE_THREADS, default cores - 1), the records' JSON sent. No routing, authentication, request
 * lifecycle, store, billing or business capture. Its queries/s under the same load bound what the
 * service can reach on this machine.
 */
async function floorRole(): Promise<void> {
  const { createServer } = await import('node:http');
  const { parseOnThreads, parseThreads } = await import('../src/engine/parse-thread.ts');
  const q = await fetchAndParse();
  // Where a page parses: as the floor did when the bound was set (here only past the threads' queue),
  // unless FLOOR_PLACEMENT=service (the service's rule: here too while this thread has room, issue 37).
  const threads = parseOnThreads(parseThreads(), process.env.FLOOR_PLACEMENT === 'service' ? {} : { busy: () => Infinity });
  const answer = async (url: string): Promise<Buffer> => {
    const query = new URL(url, 'http://floor').searchParams.get('query') ?? '';
    const out = await q.one(query, threads ? (step, res, ctx) => threads('/maps/search', q.adapter, step, res, ctx) : undefined);
    return Buffer.from(`{"status":"Success","data":[${JSON.stringify(out.records.map((r) => ({ ...r, query })))}]}`);
  };
  const server = createServer((req, res) => {
    answer(req.url ?? '/').then(
      (body) => res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length }).end(body),
      (e: Error) => res.writeHead(500).end(e.message),
    );
  });
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    console.log(JSON.stringify({ msg: 'floor listening', url: `http://127.0.0.1:${port}` }));
  });
}

// ------------------------------------------------------------ the HTTP load on the service
async function loadRole(): Promise<void> {
  const { Pool } = await import('undici');
  const base = args.url;
  const p = new Pool(base, { connections: C, pipelining: 1 });
  const path = `/maps/search?query=${QUERY}&limit=${PARAMS.limit}&language=${PARAMS.language}&async=false`;
  let places = 0;
  const one = async () => {
    const r = await p.request({ path, method: 'GET', headers: { 'x-api-key': args.key } });
    const b = (await r.body.json()) as { status: string; data: unknown[][] };
    if (r.statusCode !== 200 || b.status !== 'Success') throw new Error(`service answered ${r.statusCode} ${JSON.stringify(b).slice(0, 200)}`);
    places += b.data[0].length;
  };
  const rl = createInterface({ input: process.stdin });
  for await (const line of rl) {
    // Each line on stdin is a number of queries to run; one JSON line answers it.
    const n = Number(line);
    places = 0;
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await pool(n, C, one);
    const secs = (performance.now() - t0) / 1000;
    const c = process.cpuUsage(c0);
    if (places !== 20 * n) throw new Error(`load: ${places} places for ${n} queries`);
    console.log(JSON.stringify({ qps: n / secs, secs, clientCpuMs: (c.user + c.system) / 1000 / n }));
  }
  await p.close();
}

// ------------------------------------------------------------ orchestration
/** One service configuration of a run: the bundle (or `server` script; for a floor, another checkout's
 *  bench/service.bench.ts), its environment and node args. */
interface Arm { name: string; server?: string; env?: Record<string, string>; nodeArgs?: string[]; floor?: boolean; w?: number }

async function startServer(dataDir: string, har: string, arm: Arm) {
  const names = `${dataDir}.threads`;
  const env = { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', REPLAY_HAR: har, BASE_URL: '', THREAD_NAMES_FILE: names, ...arm.env };
  writeFileSync(names, '');
  // SERVER_NODE_ARGS: e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile the server (the floor too).
  const common = ['--import', THREAD_NAMES, ...(process.env.SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [])];
  if (arm.floor) {
    const nodeArgs = [...common, ...(arm.nodeArgs ?? [])];
    // `server`: another checkout's bench file, whose floor runs that checkout's sources (main's against a branch's).
    const child = spawn(process.execPath, [...nodeArgs, 'bin/run-ts.js', arm.server ?? SELF, '--role=floor'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    const url = await listening(child, { msg: 'floor listening' });
    return { child, url, key: 'none', names };
  }
  // An account whose balance and rate limit the bench never exhausts (the CLI, before the server).
  // Through the arm's own build: its CLI migrates the store first, and a bundle of an older main
  // must not find a schema this checkout's migrations already changed (PostgreSQL: one schema an arm).
  const a = spawnSync(process.execPath, [arm.server ?? 'bin/trawl.js', 'accounts', 'create', '--name', 'bench', '--balance', '1000000000', '--rate', '1000000', '--burst', '1000000'], { env, encoding: 'utf8' });
  if (a.status !== 0) throw new Error(`accounts create failed: ${a.stderr}`);
  const key = (JSON.parse(a.stdout) as { api_key: string }).api_key;
  // The service's V8 flags as npm start passes them, then the arm's own (which override them).
  const child = spawn(process.execPath, [...common, ...serveArgs(arm.server, arm.nodeArgs)], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  // Every line is read (the service logs each finished request at info, as in production).
  const url = await listening(child, { env });
  return { child, url, key, names };
}

/**
 * Resolves once the server's process has settled after its start: under 5 % of a core over a whole
 * second (at most 90 s). `trawl serve` warms its submit-check thread once it listens (5 s of CPU
 * reading the geo data at load 4, src/app/checks.ts); measured from the listening line, that start-up
 * work fell inside the measured queries and was counted as theirs. A whole second at 5 %: at load 20
 * on 2 cores a thread still warming gets about 10 % of a core, and an idle service uses 1-3 %.
 */
async function settled(pid: number): Promise<void> {
  const until = Date.now() + 90_000;
  let last = procCpuMs(pid).all;
  while (Date.now() < until) {
    await sleep(1_000);
    const now = procCpuMs(pid).all;
    if (now - last < 50) return;
    last = now;
  }
}

function lineReader(child: ReturnType<typeof spawn>) {
  const rl = createInterface({ input: child.stdout! });
  const queue: string[] = [];
  const waiting: Array<(l: string) => void> = [];
  rl.on('line', (l) => (waiting.length ? waiting.shift()!(l) : queue.push(l)));
  return () => new Promise<string>((r) => (queue.length ? r(queue.shift()!) : waiting.push(r)));
}

async function main(): Promise<void> {
  if (fixtureMissing(CAPTURE)) {
    console.log(`SKIP service bench: ${fixtureMissing(CAPTURE)}`);
    return;
  }
  await buildServed();
  const dir = mkdtempSync(join(tmpdir(), 'trawl-service-bench-'));
  const { adapter } = await import('../src/sources/maps-search/adapter.ts');
  const { replayEntry } = await import('../test/support/replay.ts');
  const [step] = adapter.plan({ query: QUERY, params: PARAMS } as never);
  const har = join(dir, 'search.har');
  writeFileSync(har, JSON.stringify({ log: { version: '1.2', creator: { name: 'trawl-bench', version: '1' }, pages: [], entries: [replayEntry(step, `)]}'\n${readFileSync(CAPTURE, 'utf8')}`, 'application/json')] } }));
  const env = { ...process.env, REPLAY_HAR: har, N: String(N), W: String(W), C: String(C) };
  const rows: Record<string, number[]> = {};
  const add = (k: string, v: number) => (rows[k] ??= []).push(v);
  const loads: number[] = [];
  // The default arms: the service as deployed, then the same with its parses on the API thread.
  const arms: Arm[] = process.env.ARMS ? JSON.parse(process.env.ARMS) : [{ name: 'svc' }, { name: 'inline', env: { PARSE_THREADS: '0' } }, { name: 'floor', floor: true }];
  try {
    for (let rep = 1; rep <= REPS; rep++) {
      const e = spawnSync(process.execPath, ['bin/run-ts.js', SELF, '--role=executor'], { env, encoding: 'utf8', timeout: 300_000 });
      if (e.status !== 0) throw new Error(`executor client failed: ${e.stderr}`);
      const base = JSON.parse(e.stdout.trim().split('\n').pop()!);
      add('base qps', base.qps);
      add('base cpu', base.cpuMs);
      add('base main', base.mainMs);

      for (const a of arms) {
        // Arms of ARMS are keyed apart from the executor-only client's `base` rows.
        const arm = process.env.ARMS ? `arm ${a.name}` : a.name;
        const s = await startServer(join(dir, `data-${rep}-${arms.indexOf(a)}`), har, a);
        await settled(s.child.pid!);
        const load = spawn(process.execPath, ['bin/run-ts.js', SELF, '--role=load', `--url=${s.url}`, `--key=${s.key}`], { env, stdio: ['pipe', 'pipe', 'inherit'] });
        const next = lineReader(load);
        // An arm's own warm-up (`w`), e.g. to see what its compiler still does after W queries.
        load.stdin!.write(`${a.w ?? W}\n`);
        await next();
        // PostgreSQL's own CPU, for an arm on it: its server shares the cores (bench/pg-cpu.ts).
        const onPg = !!a.env?.DATABASE_URL;
        // Its database's name: backends on the Unix socket are told apart by it (bench/pg-cpu.ts).
        const db = onPg ? decodeURIComponent(new URL(a.env!.DATABASE_URL).pathname.slice(1)) || undefined : undefined;
        // bench/pg-statements.ts, bench/sqlite-statements.ts or bench/parse-placement.js preloaded: its counts start after the warm-up.
        if (/(pg|sqlite)-statements|parse-placement|gc-isolates/.test(process.env.SERVER_NODE_ARGS ?? '')) s.child.kill('SIGUSR2');
        const p0 = onPg ? pgCpuMs(s.child.pid!, db) : null;
        const c0 = procCpuMs(s.child.pid!);
        const t0 = procThreadsMs(s.child.pid!, s.names);
        load.stdin!.write(`${N}\n`);
        const m = JSON.parse(await next());
        const c1 = procCpuMs(s.child.pid!);
        const p1 = onPg ? pgCpuMs(s.child.pid!, db) : null;
        if (p0?.seen && p1) {
          add(`${arm} pg cpu`, (p1.all - p0.all) / N);
          add(`${arm} pg own`, (p1.own - p0.own) / N);
        }
        const t1 = procThreadsMs(s.child.pid!, s.names);
        for (const [k, ms] of Object.entries(t1)) add(`${arm} thread ${k}`, (ms - (t0[k] ?? 0)) / N);
        load.stdin!.end();
        add(`${arm} qps`, m.qps);
        add(`${arm} cpu`, (c1.all - c0.all) / N);
        add(`${arm} main`, (c1.main - c0.main) / N);
        add(`${arm} client cpu`, m.clientCpuMs);
        s.child.kill('SIGTERM');
        await new Promise((r) => s.child.once('exit', r));
        const pgNote = p0?.seen && p1 ? `; PostgreSQL ${((p1.all - p0.all) / N).toFixed(2)} ms/q (its backends ${((p1.own - p0.own) / N).toFixed(2)})` : '';
        process.stderr.write(`rep ${rep}: executor-only ${base.qps.toFixed(0)} q/s ${base.cpuMs.toFixed(2)} ms/q; ${arm} ${m.qps.toFixed(0)} q/s ${((c1.all - c0.all) / N).toFixed(2)} ms/q (main ${((c1.main - c0.main) / N).toFixed(2)})${pgNote}; load ${loadavg()[0].toFixed(1)}\n`);
      }
      loads.push(loadavg()[0]);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const md = (k: string) => median(rows[k]);
  const paired = (a: string, b: string) => median(rows[a].map((v, i) => v / rows[b][i]));
  const f = (x: number, d = 2) => x.toFixed(d);
  // Each arm's CPU a query per group of threads (median of the repetitions; bench/lib.ts procThreadsMs).
  const threads = (cols: [label: string, prefix: string][]) => {
    const groups = [...new Set(cols.flatMap(([, p]) => Object.keys(rows).filter((k) => k.startsWith(`${p} thread `)).map((k) => k.slice(`${p} thread `.length))))];
    return table(['CPU ms a query by thread (median)', ...cols.map(([l]) => l)], groups.map((g) => [g, ...cols.map(([, p]) => (rows[`${p} thread ${g}`] ? f(md(`${p} thread ${g}`)) : '–'))]));
  };
  const raw = JSON.stringify(Object.fromEntries(Object.entries(rows).filter(([k]) => !k.includes(' thread ')).map(([k, v]) => [k, v.map((x) => +x.toFixed(3))])));
  if (process.env.ARMS) {
    const first = arms[0].name;
    const measures: [string, string, number][] = [['queries/s of one process', 'qps', 0], ['CPU ms per query, all threads', 'cpu', 2], ['CPU ms per query, main thread', 'main', 2], ['load generator CPU ms per query', 'client cpu', 2]];
    // PostgreSQL arms: the server's CPU a query (all its processes; its backends serving this process).
    if (arms.some((a) => rows[`arm ${a.name} pg cpu`])) measures.push(['PostgreSQL CPU ms per query, all its processes', 'pg cpu', 2], ['PostgreSQL CPU ms per query, the backends of this service', 'pg own', 2]);
    const has = (k: string) => !!rows[k]?.length;
    const cmp = table(['measure (median of ' + REPS + ')', ...arms.map((a) => a.name), 'executor-only', ...arms.slice(1).map((a) => `${a.name} / ${first} (paired)`)],
      measures.map(([label, k, d]) => [label, ...arms.map((a) => has(`arm ${a.name} ${k}`) ? f(md(`arm ${a.name} ${k}`), d) : '–'), has(`base ${k}`) ? f(md(`base ${k}`), d) : '–',
        ...arms.slice(1).map((a) => has(`arm ${a.name} ${k}`) && has(`arm ${first} ${k}`) ? f(paired(`arm ${a.name} ${k}`, `arm ${first} ${k}`)) : '–')]));
    console.log(`${cmp}\n\n${threads(arms.map((a) => [a.name, `arm ${a.name}`]))}\n\nN = ${N}, W = ${W}, C = ${C}; load average ${loads.map((x) => x.toFixed(1)).join(', ')}\nRaw: \`${raw}\``);
    return;
  }
  const out = table(['measure (median of ' + REPS + ')', 'service (HTTP, engine, store)', 'service, PARSE_THREADS=0', 'floor: bare HTTP, fetch and parse only', 'executor-only client (baseline)', 'service / baseline (paired)', 'service / PARSE_THREADS=0 (paired)', 'service / floor (paired)', 'target'], [
    ['queries/s of one process', f(md('svc qps'), 0), f(md('inline qps'), 0), f(md('floor qps'), 0), f(md('base qps'), 0), f(paired('svc qps', 'base qps')), f(paired('svc qps', 'inline qps')), f(paired('svc qps', 'floor qps')), '>= 600 q/s'],
    ['CPU ms per query, all threads', f(md('svc cpu')), f(md('inline cpu')), f(md('floor cpu')), f(md('base cpu')), f(paired('svc cpu', 'base cpu')), f(paired('svc cpu', 'inline cpu')), f(paired('svc cpu', 'floor cpu')), ''],
    ['CPU ms per query, main thread', f(md('svc main')), f(md('inline main')), f(md('floor main')), f(md('base main')), f(paired('svc main', 'base main')), f(paired('svc main', 'inline main')), f(paired('svc main', 'floor main')), ''],
    ['load generator CPU ms per query (same 2 cores)', f(md('svc client cpu')), f(md('inline client cpu')), f(md('floor client cpu')), '–', '', '', '', ''],
  ]);
  const text = `# Service path: CPU per query (issue 15)

\`node bin/run-ts.js bench/service.bench.ts\` (server: \`${serveArgs().join(' ')}\`), N = ${N} measured queries after
W = ${W} warm-up queries, C = ${C} in flight, ${REPS} interleaved repetitions; load average ${loads.map((x) => x.toFixed(1)).join(', ')} at the end of each.
Each query is one \`GET /maps/search?query=coffee&limit=20&async=false\` answered with its 20 places; the
executor replays the real map search capture (191 KB) from a HAR. Server CPU from /proc (user + system).
The floor is a bare node:http server doing only the fetch and the parse (same executor and replay, same
parse threads) and sending the records: no routing, keys, requests, store, billing or capture.

${out}

Per thread (/proc, each worker thread named by bench/thread-names.js preloaded into the server):

${threads([['service', 'svc'], ['service, PARSE_THREADS=0', 'inline'], ['floor', 'floor']])}

Raw: \`${raw}\`
`;
  console.log(text);
  writeSection('docs/performance/service-last-run.md', text);
}

if (args.role === 'executor') await executorRole();
else if (args.role === 'floor') await floorRole();
else if (args.role === 'load') await loadRole();
else await main();
