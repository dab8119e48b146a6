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
import { siteAdapters } from './site-adapters.ts';
import { WebTransport } from '../../src/fetch/impersonate.ts';

const workerOnly = !!process.env.NO_LISTEN;
const settings = { ...settingsFromEnv(process.env), ...(workerOnly ? { workers: true } : {}) };
// The constructed sites' adapters (PAGED_SOURCE_URL, MAP_SITE_URL, WALL_URL: ./site-adapters.ts).
// The bot wall is fetched over TLS with its loopback certificate.
const executorOptions = process.env.WALL_URL ? { transport: new WebTransport({ insecure: true, guard: { allowPrivate: true } }) } : undefined;
// With the map site, parses and plans run on parse threads over the same adapters, as in the service.
const parseJobModule = process.env.MAP_SITE_URL ? new URL('./site-parse-job.ts', import.meta.url) : undefined;
const svc = await startService({ settings, adapters: siteAdapters(), executorOptions, parseJobModule });
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
