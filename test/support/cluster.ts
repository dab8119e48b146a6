/**
 * Real trawl processes for scale-out tests and benchmarks: API and worker processes of
 * test/support/serve-test.ts sharing one PostgreSQL schema and one Redis key prefix, each fresh per
 * run and removed afterwards.
 *
 * @example
 *   const c = await openCluster({ databaseUrl, redisUrl });
 *   const api = await c.api();           // API only
 *   const w = await c.worker();          // workers only
 *   ...; await c.close();                // stops every process, drops the schema, deletes the keys
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { deleteKeys } from '../../src/engine/backends/redis-testing.ts';

export interface TrawlProc {
  child: ChildProcess;
  /** '' for a worker-only process. */
  url: string;
  key: string;
  /** Worker-only processes: where /health, /ready and /metrics answer; '' otherwise. */
  metricsUrl: string;
  pid: number;
  /** Lease owner name of its workers. */
  owner: string;
  /** Exit code (or the signal's name) once the process ended. */
  exited: Promise<number | string>;
  /** Last lines the process wrote to stderr (warnings), for failure messages. */
  stderrTail(): string;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts serve-test.ts with `env` and resolves on its ready line; rejects if it exits first or is
 * not ready within `timeoutMs`. The default is generous: four processes started at once on the
 * shared 2-core box at load 20 (each compiling the tree through tsx) once took more than 45 s.
 *
 * @example const p = await startTrawl({ DATA_DIR: dir, PORT: '0' }); await stopTrawl(p);
 */
export function startTrawl(env: Record<string, string>, timeoutMs = 120_000): Promise<TrawlProc> {
  const child = spawn(process.execPath, ['bin/run-ts.js', 'test/support/serve-test.ts'], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tail: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (l) => { tail.push(l); if (tail.length > 40) tail.shift(); });
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`trawl process not ready within ${timeoutMs} ms: ${tail.join('\n')}`)); }, timeoutMs);
    createInterface({ input: child.stdout! }).once('line', (l) => {
      clearTimeout(timer);
      try {
        resolve({ child, exited, stderrTail: () => tail.join('\n'), ...JSON.parse(l) });
      } catch (e) {
        child.kill('SIGKILL');
        reject(new Error(`unexpected ready line ${JSON.stringify(l)}: ${(e as Error).message}`));
      }
    });
    void exited.then((c) => { clearTimeout(timer); reject(new Error(`trawl process exited with ${c} before it was ready: ${tail.join('\n')}`)); });
  });
}

/**
 * Sends `signal` and waits for the exit (SIGKILL after `timeoutMs`); returns the exit code or signal.
 *
 * @example assert.equal(await stopTrawl(p), 0);
 */
export async function stopTrawl(p: TrawlProc, signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 20_000): Promise<number | string> {
  if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill(signal);
  const t = setTimeout(() => p.child.kill('SIGKILL'), timeoutMs);
  try { return await p.exited; } finally { clearTimeout(t); }
}

/**
 * Polls `fn` until it returns a value other than undefined/false; throws after `timeoutMs`.
 *
 * @example const body = await waitFor(async () => (await get()).status === 'Success' && body, 'request done', 60_000);
 */
export async function waitFor<T>(fn: () => Promise<T | undefined | false>, what: string, timeoutMs = 60_000, everyMs = 50): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined && v !== false) return v as T;
    } catch (e) { last = e; }
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${(last as Error).message})` : ''}`);
    await sleep(everyMs);
  }
}

export interface Cluster {
  schema: string;
  prefix: string;
  env: Record<string, string>;
  procs: TrawlProc[];
  /** A process with API only (`trawl serve --no-workers`). */
  api(extra?: Record<string, string>): Promise<TrawlProc>;
  /** A process with workers only (`trawl worker`). */
  worker(extra?: Record<string, string>): Promise<TrawlProc>;
  /** A process with both (`trawl serve`). */
  both(extra?: Record<string, string>): Promise<TrawlProc>;
  /** SQL against the cluster's schema. */
  sql<R extends Record<string, any> = Record<string, any>>(text: string, params?: unknown[]): Promise<R[]>;
  close(): Promise<void>;
}

/**
 * A fresh schema `trawl_scale_<random>` and Redis prefix for one run; `env` holds the settings
 * every process gets (lease, concurrency, retry base ...).
 *
 * @example const c = await openCluster({ databaseUrl, redisUrl, env: { LEASE_MS: '2000' } });
 */
export async function openCluster(o: { databaseUrl: string; redisUrl: string; env?: Record<string, string> }): Promise<Cluster> {
  const tag = randomBytes(5).toString('hex');
  const schema = `trawl_scale_${tag}`;
  const prefix = `trawl_scale_${tag}`;
  const dir = mkdtempSync(join(tmpdir(), 'trawl-scale-'));
  const env: Record<string, string> = {
    DATABASE_URL: o.databaseUrl, DATABASE_SCHEMA: schema, REDIS_URL: o.redisUrl, REDIS_PREFIX: prefix,
    DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', ...o.env,
  };
  // A pool that outlives a stopped private server: its errors are expected, not fatal.
  const pool = new pg.Pool({ connectionString: o.databaseUrl, max: 2, options: `-c search_path=${schema}` });
  pool.on('error', () => {});
  const procs: TrawlProc[] = [];
  const start = async (extra: Record<string, string>) => {
    const p = await startTrawl({ ...env, ...extra });
    procs.push(p);
    return p;
  };
  return {
    schema, prefix, env, procs,
    api: (extra = {}) => start({ NO_WORKERS: '1', ...extra }),
    worker: (extra = {}) => start({ NO_LISTEN: '1', ...extra }),
    both: (extra = {}) => start(extra),
    async sql(text, params = []) { return (await pool.query(text, params)).rows; },
    async close() {
      await Promise.all(procs.map((p) => stopTrawl(p, 'SIGKILL').catch(() => {})));
      try { await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`); } catch { /* server already gone */ }
      await pool.end().catch(() => {});
      await deleteKeys(o.redisUrl, prefix).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** GET with the key, JSON body. @example const { status, body } = await getJson(api, `/requests/${id}`); */
export async function getJson(p: Pick<TrawlProc, 'url' | 'key'>, path: string, timeoutMs = 10_000): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`${p.url}${path}`, { headers: { 'x-api-key': p.key }, signal: AbortSignal.timeout(timeoutMs) });
  const text = await res.text();
  let body: any = text;
  try { body = JSON.parse(text); } catch { /* not JSON: the caller's assertion shows it */ }
  return { status: res.status, body, headers: res.headers };
}
