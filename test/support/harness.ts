/**
 * Starts a real service on a loopback port for tests: SQLite in a temp dir, embedded queue, the
 * test adapter, an adjustable clock, and one account with a key.
 *
 * @example
 *   const h = await startHarness();
 *   const res = await h.get('/maps/search?query=n=2&async=false');
 *   await h.close();
 */
import { toMicros } from '../../src/billing/money.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { settingsFromEnv, type Settings } from '../../src/config/settings.ts';
import { startService, type Service } from '../../src/service/start.ts';
import { createAccount } from '../../src/app/accounts.ts';
import { openBackends } from '../../src/config/backends.ts';
import { EmbeddedQueue } from '../../src/engine/backends/embedded.ts';
import { testRegistry } from './test-adapter.ts';
import type { AdapterRegistry } from '../../src/sources/_kit/adapter.ts';
import type { Account } from '../../src/store/contract.ts';
import { createLogger, type Logger } from '../../src/ops/log.ts';

export interface Harness {
  svc: Service;
  url: string;
  key: string;
  account: Account;
  dir: string;
  /** Milliseconds added to the real clock. */
  clock: { offset: number };
  get(path: string, init?: RequestInit & { key?: string | null }): Promise<Response>;
  json(path: string, init?: RequestInit & { key?: string | null }): Promise<{ status: number; body: any; headers: Headers }>;
  /** Money in the currency unit (converted to micros). */
  newAccount(a?: { balance?: number; ratePerSec?: number; burst?: number; creditLimit?: number }): Promise<{ account: Account; key: string }>;
  close(): Promise<void>;
}

export async function startHarness(o: { settings?: Partial<Settings>; adapters?: AdapterRegistry; balance?: number; env?: NodeJS.ProcessEnv; backendEnv?: NodeJS.ProcessEnv; log?: Logger; parseJobModule?: URL } = {}): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-test-'));
  const clock = { offset: 0 };
  const now = () => Date.now() + clock.offset;
  const settings: Settings = {
    ...settingsFromEnv({}), port: 0, dataDir: dir, concurrency: 8, retryBaseMs: 20, leaseMs: 5_000, logLevel: 'silent',
    defaultRatePerSec: 1_000, defaultBurst: 1_000, authFailBurst: 10_000, ...o.settings,
  };
  const b = await openBackends({ DATA_DIR: dir, ...(o.backendEnv ?? {}) });
  const queue = new EmbeddedQueue(b.store, 50, now);
  const svc = await startService({
    settings, backends: { ...b, queue, close: async () => { await queue.close(); await b.close(); } },
    adapters: o.adapters ?? testRegistry(), now, log: o.log ?? createLogger('silent'), env: o.env ?? {}, parseJobModule: o.parseJobModule,
  });
  const address = await svc.server.listen({ port: 0, host: '127.0.0.1', backlog: settings.connections.backlog });
  svc.ctx.settings.baseUrl = address;
  const created = await createAccount(svc.ctx.store, settings, { name: 'test', balanceMicros: toMicros(o.balance ?? 1_000) }, now());
  const h: Harness = {
    svc, url: address, key: created.apiKey, account: created.account, dir, clock,
    get(path, init = {}) {
      const headers = new Headers(init.headers);
      const key = init.key === undefined ? created.apiKey : init.key;
      if (key) headers.set('x-api-key', key);
      return fetch(`${address}${path}`, { ...init, headers });
    },
    async json(path, init) {
      const res = await h.get(path, init);
      const text = await res.text();
      let body: any = text;
      try { body = text ? JSON.parse(text) : null; } catch { /* plain text */ }
      return { status: res.status, body, headers: res.headers };
    },
    async newAccount({ balance = 100, creditLimit = 0, ...a } = {}) {
      const c = await createAccount(svc.ctx.store, settings, {
        name: 'other', balanceMicros: toMicros(balance), creditLimitMicros: toMicros(creditLimit), ratePerSec: 1_000, burst: 1_000, ...a,
      }, now());
      return { account: c.account, key: c.apiKey };
    },
    async close() {
      await svc.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return h;
}

export async function until<T>(fn: () => Promise<T | null | undefined | false>, ms = 30_000, what = 'condition'): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
