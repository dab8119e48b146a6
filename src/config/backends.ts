/**
 * Picks the store, work queue, rate limiter and cluster pacing store from the environment. With
 * nothing set, everything is embedded (SQLite in DATA_DIR, in-process queue, in-memory limiter and
 * pacing); DATABASE_URL moves the store to PostgreSQL, REDIS_URL moves the queue, the rate limit and
 * the worker processes' shared pacing to Redis, QUEUE overrides the queue choice; without Redis,
 * processes that share a PostgreSQL store share pacing through it. See docs/backends.md.
 *
 * @example
 *   const b = await openBackends(process.env);
 *   b.queue.start((item) => runner.run(item), { concurrency: 16, owner, leaseMs: 60_000 });
 *   process.on('SIGTERM', () => void b.close());
 */
import { join } from 'node:path';
import type { Store } from '../store/contract.ts';
import type { WorkQueue } from '../engine/queue.ts';
import type { RateLimiter } from '../billing/rate-limit.ts';
import { MemoryRateLimiter } from '../billing/rate-limit.ts';
import { openSqliteStore } from '../store/sqlite/store.ts';
import { compressionFromEnv } from '../store/records-codec.ts';
import type { PostgresStore } from '../store/postgres/store.ts';
import { EmbeddedQueue } from '../engine/backends/embedded.ts';
import { MemoryClusterStore, type ClusterStore } from '../fetch/cluster/store.ts';
// PostgreSQL, BullMQ and Redis clients load only when chosen: the embedded default starts faster.

export interface BackendChoice {
  store: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; schema?: string; poolSize?: number; synchronousCommit?: boolean };
  queue: { kind: 'embedded' } | { kind: 'redis'; url: string; prefix: string } | { kind: 'postgres' };
  rateLimiter: { kind: 'memory' } | { kind: 'redis'; url: string; prefix: string };
  /** Where worker processes share pace slots, back-offs and proxy health (src/fetch/cluster). */
  cluster: { kind: 'memory' } | { kind: 'redis'; url: string; prefix: string } | { kind: 'postgres' };
}

export interface Backends {
  store: Store;
  queue: WorkQueue;
  rateLimiter: RateLimiter;
  /** Opens the cluster pacing store (once; workers only: an API process needs none); closed by `close`. */
  clusterStore?(): Promise<ClusterStore>;
  /** Queue first (it waits for running items, which use the store), then limiter, then store. */
  close(): Promise<void>;
}

/** Thrown for settings that cannot work together; the message names the variable to fix. */
export class BackendConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackendConfigError';
  }
}

const scheme = (url: string) => /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase();

/**
 * Reads the choice from the environment without opening anything.
 *
 * @example backendChoice({ DATABASE_URL: 'postgres://db/trawl' }).store.kind // 'postgres'
 */
export function backendChoice(env: NodeJS.ProcessEnv = process.env): BackendChoice {
  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  const redisUrl = env.REDIS_URL?.trim() || undefined;
  if (databaseUrl && !['postgres', 'postgresql'].includes(scheme(databaseUrl) ?? '')) {
    throw new BackendConfigError(`DATABASE_URL must be a postgres:// or postgresql:// URL (got "${databaseUrl.replace(/\/\/[^@/]*@/, '//***@')}"); leave it unset for the embedded SQLite store`);
  }
  if (redisUrl && !['redis', 'rediss'].includes(scheme(redisUrl) ?? '')) {
    throw new BackendConfigError(`REDIS_URL must be a redis:// or rediss:// URL (got "${redisUrl.replace(/\/\/[^@/]*@/, '//***@')}")`);
  }
  const schema = env.DATABASE_SCHEMA?.trim() || undefined;
  if (schema && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new BackendConfigError('DATABASE_SCHEMA must be lower-case letters, digits and _');
  const poolSize = env.DATABASE_POOL_SIZE ? Number(env.DATABASE_POOL_SIZE) : undefined;
  if (poolSize !== undefined && !(Number.isInteger(poolSize) && poolSize > 0)) throw new BackendConfigError('DATABASE_POOL_SIZE must be a positive whole number');
  const prefix = env.REDIS_PREFIX?.trim() || 'trawl';
  if (prefix.includes(':')) throw new BackendConfigError('REDIS_PREFIX cannot contain ":"');

  const wanted = env.QUEUE?.trim().toLowerCase() || (redisUrl ? 'redis' : 'embedded');
  let queue: BackendChoice['queue'];
  if (wanted === 'embedded') queue = { kind: 'embedded' };
  else if (wanted === 'redis') {
    if (!redisUrl) throw new BackendConfigError('QUEUE=redis needs REDIS_URL');
    queue = { kind: 'redis', url: redisUrl, prefix };
  } else if (wanted === 'postgres') {
    if (!databaseUrl) throw new BackendConfigError('QUEUE=postgres needs DATABASE_URL (the queue lives in the PostgreSQL store)');
    queue = { kind: 'postgres' };
  } else throw new BackendConfigError(`QUEUE must be embedded, redis or postgres (got "${env.QUEUE}")`);

  return {
    store: databaseUrl ? { kind: 'postgres', url: databaseUrl, schema, poolSize, ...(['1', 'true', 'on'].includes((env.DATABASE_SYNCHRONOUS_COMMIT ?? '').toLowerCase()) ? { synchronousCommit: true } : {}) } : { kind: 'sqlite', file: join(env.DATA_DIR || './data', 'trawl.db') },
    queue,
    rateLimiter: redisUrl ? { kind: 'redis', url: redisUrl, prefix } : { kind: 'memory' },
    // Redis when there is one; else PostgreSQL when processes claim work from it (either queue); else one process.
    cluster: redisUrl ? { kind: 'redis', url: redisUrl, prefix } : databaseUrl ? { kind: 'postgres' } : { kind: 'memory' },
  };
}

/** CHECKPOINT_MS: how often the serving process's checkpoint thread copies SQLite's WAL into the
 *  file (src/store/sqlite/checkpointer.ts); 0 = in the committing transaction, as SQLite does.
 *  500 by default (200 before issue 37, session 14): each checkpoint costs that thread about the same
 *  whatever it copies (it syncs the file), 0.3-0.6 ms of CPU a map search at 200; a map search writes
 *  about 17 log pages, so half a second at 470 queries/s is 4,000 pages, half the API connection's
 *  own threshold (8,000, src/store/sqlite/handle.ts). */
const CHECKPOINT_MS = 500;

function checkpointMs(env: NodeJS.ProcessEnv): number {
  const v = env.CHECKPOINT_MS === undefined || env.CHECKPOINT_MS === '' ? CHECKPOINT_MS : Number(env.CHECKPOINT_MS);
  if (!Number.isInteger(v) || v < 0) throw new BackendConfigError(`CHECKPOINT_MS must be a whole number of milliseconds >= 0, got ${JSON.stringify(env.CHECKPOINT_MS)}`);
  return v;
}

/** RESULT_COMPRESSION for the embedded store (PostgreSQL compresses large values itself: TOAST). */
function sqliteCompression(env: NodeJS.ProcessEnv): number | null {
  try {
    return compressionFromEnv(env.RESULT_COMPRESSION);
  } catch (e) {
    throw new BackendConfigError((e as Error).message);
  }
}

/**
 * Opens the chosen backends (the store is migrated). On failure, whatever was opened is closed again.
 *
 * @example const { store, queue, rateLimiter, close } = await openBackends({ DATA_DIR: '/var/lib/trawl' });
 */
export async function openBackends(env: NodeJS.ProcessEnv = process.env, o: { serving?: boolean } = {}): Promise<Backends> {
  const choice = backendChoice(env);
  const store: Store = choice.store.kind === 'postgres'
    ? await (await import('../store/postgres/store.ts')).openPostgresStore(choice.store.url, { schema: choice.store.schema, max: choice.store.poolSize, synchronousCommit: choice.store.synchronousCommit })
    : await openSqliteStore(choice.store.file, { compression: sqliteCompression(env), checkpointMs: o.serving ? checkpointMs(env) : 0 });
  let queue: WorkQueue | undefined;
  let rateLimiter: RateLimiter | undefined;
  try {
    queue = choice.queue.kind === 'redis' ? new (await import('../engine/backends/redis.ts')).RedisQueue(store, { url: choice.queue.url, prefix: choice.queue.prefix })
      : choice.queue.kind === 'postgres' ? new (await import('../engine/backends/postgres.ts')).PostgresQueue(store as PostgresStore)
        : new EmbeddedQueue(store);
    rateLimiter = choice.rateLimiter.kind === 'redis'
      ? new (await import('../billing/redis-rate-limit.ts')).RedisRateLimiter({ url: choice.rateLimiter.url, prefix: choice.rateLimiter.prefix })
      : new MemoryRateLimiter();
  } catch (e) {
    await queue?.close().catch(() => {});
    await store.close().catch(() => {});
    throw e;
  }
  const q = queue;
  const rl = rateLimiter;
  let closing: Promise<void> | null = null;
  let cluster: Promise<ClusterStore> | null = null;
  const c = choice.cluster;
  return {
    store, queue: q, rateLimiter: rl,
    clusterStore: () => (cluster ??= (async (): Promise<ClusterStore> => {
      if (c.kind === 'redis') {
        const r = new (await import('../fetch/cluster/redis.ts')).RedisClusterStore({ url: c.url, prefix: c.prefix });
        // Not connected yet: the link starts alone (logged) and shares once Redis answers.
        await r.ready().catch(() => undefined);
        return r;
      }
      if (c.kind === 'postgres') return new (await import('../fetch/cluster/postgres.ts')).PostgresClusterStore((store as PostgresStore).clientConfig());
      return new MemoryClusterStore();
    })()),
    close: () => (closing ??= (async () => {
      await q.close().catch((e) => process.emitWarning(`closing the queue: ${(e as Error).message}`));
      await rl.close?.().catch((e) => process.emitWarning(`closing the rate limiter: ${(e as Error).message}`));
      if (cluster) await (await cluster).close().catch((e) => process.emitWarning(`closing the cluster pacing store: ${(e as Error).message}`));
      await store.close();
    })()),
  };
}
