/**
 * The default backends: SQLite store in DATA_DIR, embedded queue, in-memory rate limiter.
 *
 * @example const b = await openEmbeddedBackends('./data'); ... await b.close();
 */
import { join } from 'node:path';
import { openSqliteStore } from '../store/sqlite/store.ts';
import { EmbeddedQueue } from '../engine/backends/embedded.ts';
import { MemoryRateLimiter } from '../billing/rate-limit.ts';

export async function openEmbeddedBackends(dataDir: string) {
  const store = await openSqliteStore(join(dataDir, 'trawl.db'));
  const queue = new EmbeddedQueue(store);
  return { store, queue, rateLimiter: new MemoryRateLimiter(), close: async () => { await queue.close(); await store.close(); } };
}
