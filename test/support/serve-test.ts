/**
 * `trawl serve` as a real process but with the test-only adapter (never served in production), for
 * tests that kill and restart processes. Prints one JSON line `{"url", "key"}` when listening.
 * Run: node bin/run-ts.js test/support/serve-test.ts   (settings from the environment)
 */
import { settingsFromEnv } from '../../src/config/settings.ts';
import { startService } from '../../src/app/service.ts';
import { createAccount, createApiKey } from '../../src/app/accounts.ts';
import { testRegistry } from './test-adapter.ts';

const settings = settingsFromEnv(process.env);
const svc = await startService({ settings, adapters: testRegistry() });
const store = svc.ctx.store;
let key: string;
if ((await store.countAccounts()) === 0) key = (await createAccount(store, settings, { name: 'crash', balance: 1_000, ratePerSec: 10_000, burst: 10_000 })).apiKey;
else key = (await createApiKey(store, (await store.listAccounts())[0].id)).key;
const url = settings.workers === false && process.env.NO_LISTEN ? '' : await svc.listen();
process.stdout.write(`${JSON.stringify({ url, key, pid: process.pid })}\n`);
const stop = async () => { await svc.close(); process.exit(0); };
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
