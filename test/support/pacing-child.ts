/**
 * A worker process's pacing alone (test/cluster-pacing.test.ts): links to the Redis cluster store
 * under `prefix` and keeps `waiters` requests waiting for starts on `key` (`gapMs` apart), forever;
 * prints "leasing" once it holds starts. The test kills it with SIGKILL.
 *
 * Run: node bin/run-ts.js test/support/pacing-child.ts <redis url> <prefix> <key> <gapMs> <waiters>
 */
import { ClusterLink } from '../../src/fetch/cluster/link.ts';
import { RedisClusterStore } from '../../src/fetch/cluster/redis.ts';

const [url, prefix, key, gap, waiters] = process.argv.slice(2);
const store = new RedisClusterStore({ url: url!, prefix });
await store.ready();
const link = new ClusterLink(store);
await link.start();
let told = false;
const loop = async () => {
  for (;;) {
    const { at } = await link.take(key!, performance.now(), Number(gap));
    if (!told) {
      told = true;
      process.stdout.write('leasing\n');
    }
    await new Promise((r) => setTimeout(r, Math.max(0, at - performance.now())));
  }
};
for (let i = 0; i < Number(waiters); i++) void loop();
