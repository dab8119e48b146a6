import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { BackendConfigError, backendChoice, openBackends } from './backends.ts';
import { PG_SKIP, dropSchema, pgTestUrl } from '../store/postgres/testing.ts';
import { REDIS_SKIP, deleteKeys, redisTestUrl } from '../engine/backends/redis-testing.ts';

test('backend choice: embedded by default, PostgreSQL with DATABASE_URL, Redis queue and limiter with REDIS_URL', () => {
  assert.deepEqual(backendChoice({}), { store: { kind: 'sqlite', file: join('./data', 'trawl.db') }, queue: { kind: 'embedded' }, rateLimiter: { kind: 'memory' }, cluster: { kind: 'memory' } });
  assert.deepEqual(backendChoice({ DATA_DIR: '/var/lib/trawl' }).store, { kind: 'sqlite', file: '/var/lib/trawl/trawl.db' });
  const pgOnly = backendChoice({ DATABASE_URL: 'postgres://u:p@db:5432/trawl' });
  assert.deepEqual(pgOnly.store, { kind: 'postgres', url: 'postgres://u:p@db:5432/trawl', schema: undefined, poolSize: undefined });
  assert.deepEqual(pgOnly.queue, { kind: 'embedded' }, 'without Redis the embedded queue claims from the shared store');
  const both = backendChoice({ DATABASE_URL: 'postgresql://db/trawl', REDIS_URL: 'redis://cache:6379', DATABASE_SCHEMA: 'svc', DATABASE_POOL_SIZE: '20' });
  assert.deepEqual(both.store, { kind: 'postgres', url: 'postgresql://db/trawl', schema: 'svc', poolSize: 20 });
  assert.equal((backendChoice({ DATABASE_URL: 'postgres://db/x', DATABASE_SYNCHRONOUS_COMMIT: 'on' }).store as { synchronousCommit?: boolean }).synchronousCommit, true);
  assert.deepEqual(both.queue, { kind: 'redis', url: 'redis://cache:6379', prefix: 'trawl' });
  assert.deepEqual(both.rateLimiter, { kind: 'redis', url: 'redis://cache:6379', prefix: 'trawl' });
  assert.deepEqual(backendChoice({ DATABASE_URL: 'postgres://db/x', QUEUE: 'postgres' }).queue, { kind: 'postgres' });
  // Worker processes share pacing through Redis when there is one, else through the PostgreSQL queue's store.
  assert.deepEqual(both.cluster, { kind: 'redis', url: 'redis://cache:6379', prefix: 'trawl' });
  assert.deepEqual(backendChoice({ DATABASE_URL: 'postgres://db/x', QUEUE: 'postgres' }).cluster, { kind: 'postgres' });
  assert.deepEqual(pgOnly.cluster, { kind: 'postgres' }, 'processes claiming from one PostgreSQL store share pacing through it');
  assert.deepEqual(backendChoice({ DATA_DIR: '/d' }).cluster, { kind: 'memory' }, 'the embedded store has one process');
  const embeddedWithRedis = backendChoice({ REDIS_URL: 'rediss://cache', QUEUE: 'embedded', REDIS_PREFIX: 'prod' });
  assert.deepEqual(embeddedWithRedis.queue, { kind: 'embedded' });
  assert.deepEqual(embeddedWithRedis.rateLimiter, { kind: 'redis', url: 'rediss://cache', prefix: 'prod' }, 'the limit stays shared');
});

test('backend choice: settings that cannot work are refused with the variable to fix', () => {
  const bad: [NodeJS.ProcessEnv, RegExp][] = [
    [{ QUEUE: 'redis' }, /QUEUE=redis needs REDIS_URL/],
    [{ QUEUE: 'postgres' }, /QUEUE=postgres needs DATABASE_URL/],
    [{ QUEUE: 'kafka' }, /QUEUE must be embedded, redis or postgres/],
    [{ DATABASE_URL: 'mysql://root:secret@db/x' }, /DATABASE_URL must be a postgres:\/\//],
    [{ DATABASE_URL: 'sqlite:./x.db' }, /DATABASE_URL must be/],
    [{ REDIS_URL: 'http://cache' }, /REDIS_URL must be a redis:\/\//],
    [{ DATABASE_URL: 'postgres://db/x', DATABASE_SCHEMA: 'Bad-Name' }, /DATABASE_SCHEMA/],
    [{ DATABASE_URL: 'postgres://db/x', DATABASE_POOL_SIZE: 'lots' }, /DATABASE_POOL_SIZE/],
    [{ REDIS_URL: 'redis://c', REDIS_PREFIX: 'a:b' }, /REDIS_PREFIX/],
  ];
  for (const [env, msg] of bad) assert.throws(() => backendChoice(env), (e: unknown) => e instanceof BackendConfigError && msg.test((e as Error).message), JSON.stringify(env));
  assert.throws(() => backendChoice({ DATABASE_URL: 'mysql://root:secret@db/x' }), (e: Error) => !e.message.includes('secret'), 'no password in the message');
});

test('openBackends: the embedded set opens a SQLite file in DATA_DIR and closes cleanly', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-backends-'));
  try {
    const b = await openBackends({ DATA_DIR: dir });
    assert.equal(b.store.kind, 'sqlite');
    assert.equal(b.queue.kind, 'embedded');
    assert.equal(b.rateLimiter.constructor.name, 'MemoryRateLimiter');
    assert.ok(existsSync(join(dir, 'trawl.db')));
    await b.queue.ping();
    await b.close();
    await b.close(); // idempotent
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test('openBackends: CHECKPOINT_MS must be a whole number of milliseconds', async () => {
  for (const v of ['-1', '1.5', 'soon']) {
    await assert.rejects(openBackends({ DATA_DIR: '/nonexistent', CHECKPOINT_MS: v }, { serving: true }), (e: unknown) => e instanceof BackendConfigError && /CHECKPOINT_MS/.test((e as Error).message), v);
  }
});

const pgUrl = pgTestUrl();
const redisUrl = redisTestUrl();

test('openBackends: PostgreSQL store with the Redis queue and limiter', { skip: !pgUrl ? PG_SKIP : !redisUrl ? REDIS_SKIP : false }, async () => {
  const schema = `trawl_test_${randomBytes(6).toString('hex')}`;
  const prefix = `trawl_test_${randomBytes(5).toString('hex')}`;
  const b = await openBackends({ DATABASE_URL: pgUrl, DATABASE_SCHEMA: schema, REDIS_URL: redisUrl, REDIS_PREFIX: prefix });
  try {
    assert.equal(b.store.kind, 'postgres');
    assert.equal(b.queue.kind, 'redis');
    assert.equal(b.rateLimiter.constructor.name, 'RedisRateLimiter');
    await b.store.ping();
    await b.queue.ping();
    assert.equal((await b.rateLimiter.take('acct', 1, 1)).ok, true);
    assert.equal((await b.rateLimiter.take('acct', 1, 1)).ok, false);
  } finally {
    await b.close();
    await dropSchema(pgUrl!, schema);
    await deleteKeys(redisUrl!, prefix);
  }
});

test('openBackends: QUEUE=postgres runs the queue on the PostgreSQL store', { skip: pgUrl ? false : PG_SKIP }, async () => {
  const schema = `trawl_test_${randomBytes(6).toString('hex')}`;
  const b = await openBackends({ DATABASE_URL: pgUrl, DATABASE_SCHEMA: schema, QUEUE: 'postgres' });
  try {
    assert.equal(b.queue.kind, 'postgres');
    assert.equal(await b.queue.depth(), 0);
  } finally {
    await b.store.ping();
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await b.close();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  }
});

test('openBackends: an unreachable database fails the start with a clear error', async () => {
  await assert.rejects(openBackends({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/x' }), /PostgreSQL unavailable/);
});
