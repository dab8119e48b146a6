/**
 * `trawl serve` / `trawl worker` as a real process but with the test-only adapter (never served in
 * production), for tests that kill and restart processes. Backends come from the environment exactly
 * as in the service (`DATABASE_URL`, `DATABASE_SCHEMA`, `REDIS_URL`, `REDIS_PREFIX`, `QUEUE`, ...).
 *
 * Modes (settings from the environment):
 *   default          API and workers; listens on PORT
 *   NO_WORKERS=1     API only; listens on PORT
 *   NO_LISTEN=1      workers only (like `trawl worker`): no API, touches no account; serves /health,
 *                    /ready and /metrics on METRICS_PORT (default: any free port)
 *
 * Prints one JSON line `{"url", "key", "metricsUrl", "pid", "owner"}` when ready: listening, or
 * (worker-only) once the queue started and its backend answered a ping. `url` and `key` are '' in
 * worker-only mode, `metricsUrl` '' otherwise.
 * SIGTERM/SIGINT close the service gracefully (running items finish, leased ones are handed back).
 *
 * Run: node bin/run-ts.js test/support/serve-test.ts
 */
import { settingsFromEnv } from '../../src/config/settings.ts';
import { startService } from '../../src/service/start.ts';
import { createAccount, createApiKey } from '../../src/app/accounts.ts';
import { warmChecks } from '../../src/app/checks.ts';
import { testRegistry } from './test-adapter.ts';
import { pagedAdapter } from './paged-source.ts';
import { onSite } from './map-site.ts';
import { adapter as mapsSearchAdapter } from '../../src/sources/maps-search/adapter.ts';
import { wallAdapter } from './wall-source.ts';
import { WebTransport } from '../../src/fetch/impersonate.ts';

const workerOnly = !!process.env.NO_LISTEN;
const settings = { ...settingsFromEnv(process.env), ...(workerOnly ? { workers: true } : {}) };
// PAGED_SOURCE_URL: /bizdir-reviews walks the constructed paged source there (test/support/paged-source.ts).
// MAP_SITE_URL: /maps/search runs the real adapter against the loopback map site there (test/support/map-site.ts).
const paged = process.env.PAGED_SOURCE_URL ? [pagedAdapter(process.env.PAGED_SOURCE_URL)] : [];
if (process.env.MAP_SITE_URL) paged.push(onSite(mapsSearchAdapter, process.env.MAP_SITE_URL));
// WALL_URL: /maps/search fetches the bench's bot wall there (test/support/wall-source.ts), over TLS
// with its loopback certificate.
if (process.env.WALL_URL) paged.push(wallAdapter(process.env.WALL_URL));
const executorOptions = process.env.WALL_URL ? { transport: new WebTransport({ insecure: true, guard: { allowPrivate: true } }) } : undefined;
const svc = await startService({ settings, adapters: testRegistry(undefined, paged), executorOptions });
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await svc.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());

let key = '';
let url = '';
let metricsUrl = '';
if (workerOnly) {
  // The queue started inside startService; a ping proves its backend (Redis, the store) answers.
  await svc.ctx.queue.ping();
  metricsUrl = await svc.listenOps(Number(process.env.METRICS_PORT ?? 0));
} else {
  const store = svc.ctx.store;
  // A rate limit no test or benchmark reaches: the API bench submits over 10,000 req/s on a quiet box.
  if ((await store.countAccounts()) === 0) key = (await createAccount(store, settings, { name: 'crash', balanceMicros: 1_000_000_000, ratePerSec: 1_000_000, burst: 1_000_000 })).apiKey;
  else key = (await createApiKey(store, (await store.listAccounts())[0].id)).key;
  url = await svc.listen();
  // As `trawl serve` does once it listens (src/cli/main.ts).
  void warmChecks();
}
process.stdout.write(`${JSON.stringify({ url, key, metricsUrl, pid: process.pid, owner: svc.owner })}\n`);
