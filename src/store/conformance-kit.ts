/**
 * What every part's conformance section (accounts/conformance.ts, billing/conformance.ts, ...) is
 * written with: a test that opens a fresh store and closes it, and the account and request every
 * section starts from. The sections run together through storeConformance (./conformance.ts).
 *
 * @example
 *   const { t, account } = partSuite('accounts', 'sqlite', open);
 *   t('keys', async (s) => { const a = await account(s); ... });
 */
import { test } from 'node:test';
import { randomUUID } from 'node:crypto';
import type { Account, NewRequest, Store } from './contract.ts';
import { toMicros as µ } from '../billing/money.ts';

export type OpenStore = () => Promise<Store>;
export interface SuiteOptions { skip?: string | false }

export function partSuite(part: string, name: string, open: OpenStore, opts: SuiteOptions = {}) {
  const t = (title: string, fn: (s: Store) => Promise<void>) =>
    test(`store conformance [${name}] ${part}: ${title}`, { skip: opts.skip || false }, async () => {
      const s = await open();
      try { await fn(s); } finally { await s.close(); }
    });

  /** `balance` in the currency unit; the store holds micros. */
  const account = async (s: Store, balance = 100, patch: Partial<Account> = {}) =>
    s.createAccount({ id: randomUUID(), name: 'a', balanceMicros: µ(balance), creditLimitMicros: 0, currency: 'usd', pastDue: false,
      webhookSecret: 'secret', webhookUrl: null, ratePerSec: 20, burst: 40, ...patch, createdAt: 1_000 });

  const request = (accountId: string, queries: string[], patch: Partial<NewRequest> = {}): NewRequest => ({
    id: randomUUID(), accountId, endpoint: '/test', params: { limit: 3 }, queries, webhook: null, product: 'test_service',
    unit: 'record', unitPriceMicros: µ(0.5), emptyCostsOne: true, dropDuplicates: false, taskId: null, maxAttempts: 3, createdAt: 10_000, ...patch,
  });

  return { t, account, request };
}
