// The three cluster stores answer the same conformance cases (./conformance.ts): in process, Redis
// (TEST_REDIS_URL, a key prefix of its own) and PostgreSQL (TEST_DATABASE_URL, a schema of its own).
import { clusterStoreConformance } from './conformance.ts';
import { MemoryClusterStore } from './store.ts';
import { RedisClusterStore } from './redis.ts';
import { PostgresClusterStore } from './postgres.ts';
import { REDIS_SKIP, deleteKeys, redisTestUrl, uniquePrefix } from '../../engine/backends/redis-testing.ts';
import { PG_SKIP, openScratchPostgresStore, pgTestUrl } from '../../store/postgres/testing.ts';

clusterStoreConformance('memory', async () => {
  const s = new MemoryClusterStore();
  return { a: s, b: s, close: () => s.close() };
});

const redisUrl = redisTestUrl();
clusterStoreConformance('redis', async () => {
  const prefix = uniquePrefix('cluster');
  const a = new RedisClusterStore({ url: redisUrl!, prefix });
  const b = new RedisClusterStore({ url: redisUrl!, prefix });
  await Promise.all([a.ready(), b.ready()]);
  return { a, b, close: async () => { await a.close(); await b.close(); await deleteKeys(redisUrl!, prefix); } };
}, { skip: !redisUrl && REDIS_SKIP });

const pgUrl = pgTestUrl();
clusterStoreConformance('postgres', async () => {
  const store = await openScratchPostgresStore(pgUrl!);
  const a = new PostgresClusterStore(store.clientConfig());
  const b = new PostgresClusterStore(store.clientConfig());
  return { a, b, close: async () => { await a.close(); await b.close(); await store.close(); } };
}, { skip: !pgUrl && PG_SKIP });
