/**
 * Test support for the Redis backends: where the test server is, a unique key prefix per run, and
 * removal of every key under that prefix afterwards (the server may be shared with other runs).
 *
 * @example
 *   const url = redisTestUrl();
 *   test('...', { skip: !url && REDIS_SKIP }, async () => { const p = uniquePrefix(); ...; await deleteKeys(url!, p); });
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { freePort } from '../../store/postgres/private-server.ts';

/** TEST_REDIS_URL, else REDIS_URL; undefined when neither is set. @example const url = redisTestUrl(); */
export function redisTestUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env.TEST_REDIS_URL || env.REDIS_URL || undefined;
}

export const REDIS_SKIP = 'Redis not configured: set TEST_REDIS_URL (e.g. redis://127.0.0.1:6379) to run this suite';

/** A key prefix no other run uses. @example uniquePrefix('q') // 'trawl_q_3f9a0c21de' */
export function uniquePrefix(tag = 'test'): string {
  return `trawl_${tag}_${randomBytes(5).toString('hex')}`;
}

/** Deletes every key starting with `${prefix}:`; returns how many. @example await deleteKeys(url, prefix) */
export async function deleteKeys(url: string, prefix: string): Promise<number> {
  const r = new Redis(url, { maxRetriesPerRequest: 2 });
  try {
    let n = 0;
    let cursor = '0';
    do {
      const [next, keys] = await r.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length) n += await r.del(...keys);
    } while (cursor !== '0');
    return n;
  } finally {
    r.disconnect();
  }
}

export interface PrivateRedis {
  url: string;
  start(): Promise<void>;
  /** SIGKILL: every key is lost (no persistence), as after a crash of an in-memory Redis. */
  kill(): Promise<void>;
  destroy(): Promise<void>;
}

/** Why a private redis-server cannot run here, or null when it can. @example privateRedisUnavailable() // null */
export function privateRedisUnavailable(): string | null {
  return spawnSync('sh', ['-c', 'command -v redis-server']).status === 0 ? null : 'redis-server not on PATH';
}

/**
 * A throw-away redis-server on a free loopback port, for tests that kill and restart Redis.
 *
 * @example const r = await startPrivateRedis(); await r.kill(); await r.start(); await r.destroy();
 */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let proc: ChildProcess | null = null;
  const up = async () => {
    const end = Date.now() + 10_000;
    for (;;) {
      const c = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      c.on('error', () => {});
      try { await c.connect(); await c.ping(); return; } catch { if (Date.now() > end) throw new Error('private redis did not start'); } finally { c.disconnect(); }
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const r: PrivateRedis = {
    url: `redis://127.0.0.1:${port}`,
    async start() {
      proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
      await up();
    },
    async kill() {
      const p = proc;
      proc = null;
      if (!p || p.exitCode !== null) return;
      await new Promise<void>((res) => { p.once('exit', () => res()); p.kill('SIGKILL'); });
    },
    async destroy() { await r.kill(); },
  };
  await r.start();
  return r;
}
