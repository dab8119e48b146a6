/**
 * Small helpers shared by the benchmarks: medians, sleeps, markdown tables, result files.
 *
 * @example median([3, 1, 2]) // 2
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { dirname } from 'node:path';
import { SERVE_V8_FLAGS } from '../src/ops/serve-flags.ts';

/**
 * One timed run of `fn` over a body of `bytes`: MB/s by CPU time (user + system of this process, so
 * other load on the box does not count) and by wall time, after a warm-up. 1 MB = 10^6 bytes.
 * `fn` returns a number that is summed into `sink` so the work cannot be optimised away.
 */
export function throughput(bytes: number, fn: () => number, runMs: number): { cpu: number; wall: number } {
  for (let i = 0; i < 30; i++) sink += fn();
  let n = 0;
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  let el = 0;
  while (el < runMs) {
    for (let i = 0; i < 10; i++) sink += fn();
    n += 10;
    el = Number(process.hrtime.bigint() - t0) / 1e6;
  }
  const c = process.cpuUsage(c0);
  const mb = (bytes * n) / 1e6;
  return { cpu: mb / ((c.user + c.system) / 1e6), wall: mb / (el / 1000) };
}
export let sink = 0;

/** A parser measured against a baseline on the same body. */
export interface ParserRow { name: string; bytes: number; base: string; baseFn: () => number; fn: () => number }

/**
 * Markdown rows `| input | bytes | parser MB/s | baseline | baseline MB/s | ratio |` of `rows`, each
 * the median of 3 runs interleaved with its baseline (drift hits both alike).
 */
export function parserTable(rows: ParserRow[], runMs: number): string[] {
  const out = ['| input | bytes | parser MB/s | baseline | baseline MB/s | parser / baseline |', '|---|---:|---:|---|---:|---:|'];
  for (const r of rows) {
    const p: Array<{ cpu: number; wall: number }> = [];
    const b: Array<{ cpu: number; wall: number }> = [];
    for (let k = 0; k < 3; k++) {
      b.push(throughput(r.bytes, r.baseFn, runMs));
      p.push(throughput(r.bytes, r.fn, runMs));
    }
    const pc = median(p.map((x) => x.cpu));
    const bc = median(b.map((x) => x.cpu));
    const pw = median(p.map((x) => x.wall));
    const bw = median(b.map((x) => x.wall));
    out.push(`| ${r.name} | ${r.bytes} | ${pc.toFixed(1)} (${pw.toFixed(1)}) | ${r.base} | ${bc.toFixed(1)} (${bw.toFixed(1)}) | ${(pc / bc).toFixed(2)} |`);
  }
  return out;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : NaN;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function table(head: string[], rows: (string | number)[][]): string {
  return [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

/**
 * True when the run was asked to rewrite its page under docs/performance: `--write` on the command line
 * (`npm run bench -- api --write`, or `node bin/run-ts.js bench/api.bench.ts --write`) or BENCH_WRITE=1,
 * which bench/run.ts passes to each bench. Off by default so running a bench leaves the tree clean.
 */
export function writeRequested(argv: readonly string[] = process.argv, env: NodeJS.ProcessEnv = process.env): boolean {
  return argv.includes('--write') || env.BENCH_WRITE === '1';
}

/**
 * A bench's result page: written to `file` only when asked (writeRequested); otherwise printed to stdout
 * with the path it would have gone to. Returns whether it was written.
 */
export function writeSection(file: string, text: string, write = writeRequested()): boolean {
  const page = `${text.trimEnd()}\n\n_Measured ${new Date().toISOString().slice(0, 10)} on this 2-core machine; compare only numbers from the same run._\n`;
  if (!write) {
    process.stdout.write(`\n${page}\n(not written to ${file}: add --write to update it)\n`);
    return false;
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, page);
  return true;
}

/** Starts a node process that prints one JSON line when ready; resolves with it. */
export function startProcess(args: string[], env: Record<string, string>): Promise<{ child: ChildProcess; info: any }> {
  const child = spawn(process.execPath, args, { env: { ...process.env, LOG_LEVEL: 'silent', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (l) => resolve({ child, info: JSON.parse(l) }));
    child.once('exit', (c) => reject(new Error(`exited ${c}`)));
  });
}

/** SIGTERM and wait for the exit. */
export async function stop(child: ChildProcess) {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

/** A /proc/<pid>/status memory field in kB (VmRSS now, VmHWM peak). */
export function rssKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`${field}:\\s+(\\d+)`));
  return m ? Number(m[1]) : 0;
}


/** utime + stime in ms of one /proc stat file (a process, all its threads, or one thread). */
const statMs = (file: string) => {
  const f = readFileSync(file, 'utf8');
  const x = f.slice(f.lastIndexOf(')') + 2).split(' ');
  return ((Number(x[11]) + Number(x[12])) * 1000) / 100; // USER_HZ = 100
};

/** utime + stime in ms of a process (all its threads) and of its main thread alone, from /proc. */
export function procCpuMs(pid: number): { all: number; main: number } {
  return { all: statMs(`/proc/${pid}/stat`), main: statMs(`/proc/${pid}/task/${pid}/stat`) };
}

/** Node's own threads started before any script: its platform's delayed-task scheduler and its 4 V8
 *  workers (`--v8-pool-size`), which run the garbage collector's parallel and concurrent work and
 *  background compilation for every isolate of the process. */
const PLATFORM_THREADS = 5;

/**
 * utime + stime in ms of each group of a process's threads, from /proc: `API thread` (the main one),
 * each worker thread by the name bench/thread-names.js wrote for it (`names`, the server preloaded
 * with it; threads of one name summed), `V8 platform (GC, compiler)` (the first unnamed threads,
 * PLATFORM_THREADS), `libuv pool, other` (the remaining unnamed ones: fs, zlib, crypto, dns jobs) and
 * `ended threads` (what the process counts for threads gone since). Differences of two samples
 * around a measured window give each group's share of it.
 */
export function procThreadsMs(pid: number, names?: string): Record<string, number> {
  const named = new Map<string, string>();
  if (names) for (const l of readFileSync(names, 'utf8').split('\n')) if (l) named.set(l.split(' ')[0], l.slice(l.indexOf(' ') + 1));
  const out: Record<string, number> = {};
  const add = (k: string, ms: number) => (out[k] = (out[k] ?? 0) + ms);
  let live = 0;
  let unnamed = 0;
  const tids = readdirSync(`/proc/${pid}/task`).map(Number).sort((a, b) => a - b);
  for (const tid of tids) {
    let ms: number;
    try {
      ms = statMs(`/proc/${pid}/task/${tid}/stat`);
    } catch {
      continue; // ended while read: counted under `ended threads`
    }
    live += ms;
    if (tid === pid) add('API thread', ms);
    else if (named.has(String(tid))) add(named.get(String(tid))!, ms);
    else add(unnamed++ < PLATFORM_THREADS ? 'V8 platform (GC, compiler)' : 'libuv pool, other', ms);
  }
  add('ended threads', statMs(`/proc/${pid}/stat`) - live);
  return out;
}

/** `trawl serve` as `npm start` runs it: the production bundle (SERVER=tsx: the sources through tsx)
 *  with the service's V8 flags (src/ops/serve-flags.ts); `server`: another bundle, run the same way.
 *  `nodeArgs` come after those flags, so a bench arm's own flag overrides the service's (V8 takes a
 *  flag's last value: `--max-semi-space-size=16` is V8's default young generation again). */
export function serveArgs(server?: string, nodeArgs: readonly string[] = []): string[] {
  const script = server ? [server, 'serve'] : process.env.SERVER === 'tsx' ? ['--import', 'tsx', 'src/cli/main.ts', 'serve'] : ['dist/server/trawl.js', 'serve'];
  return [...SERVE_V8_FLAGS, ...nodeArgs, ...script];
}

/** Builds the bundle serveArgs() runs (nothing to build for SERVER=tsx). */
export async function buildServed(): Promise<void> {
  if (process.env.SERVER !== 'tsx') await (await import('../src/ops/build.ts')).buildServer();
}

/** Log levels that still print `trawl serve`'s info-level "trawl listening" line. */
const SHOWS_INFO = new Set(['trace', 'debug', 'info']);

/**
 * The address a started `trawl serve` (or a bench's floor, `msg`) announces on its stdout, read from
 * its JSON line. It fails, saying why, where it would otherwise wait for ever: the child's env sets a
 * LOG_LEVEL that hides info (a bench arm with LOG_LEVEL=warn held the bench lock 20 minutes, session
 * 26), the child exits first, or no such line comes within `timeoutMs`.
 */
export function listening(child: ChildProcess, o: { env?: NodeJS.ProcessEnv; msg?: string; timeoutMs?: number } = {}): Promise<string> {
  const msg = o.msg ?? 'trawl listening';
  const level = o.env?.LOG_LEVEL;
  if (level && !SHOWS_INFO.has(level)) {
    child.kill();
    return Promise.reject(new Error(`LOG_LEVEL=${level} hides the info-level "${msg}" line this bench reads the server's address from; run it at info`));
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.kill(); reject(new Error(`no "${msg}" line within ${(o.timeoutMs ?? 120_000) / 1000} s`)); }, o.timeoutMs ?? 120_000);
    child.once('exit', (c, sig) => { clearTimeout(timer); reject(new Error(`the server exited (${sig ?? c}) before its "${msg}" line`)); });
    createInterface({ input: child.stdout! }).on('line', (l) => {
      if (!l.includes(`"${msg}"`)) return;
      try {
        const m = JSON.parse(l) as { msg?: string; url?: string };
        if (m.msg === msg && m.url) { clearTimeout(timer); resolve(m.url); }
      } catch { /* not a JSON line */ }
    });
  });
}
