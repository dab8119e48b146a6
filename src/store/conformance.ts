/**
 * The store conformance suite: every backend runs it (see sqlite/store.test.ts, postgres/store.test.ts).
 * One section per part of the store (issue 16), each next to its part's contract; this file runs
 * them all, plus what belongs to the store as a whole. The business database has its own suite
 * (businesses/conformance.ts).
 *
 * @example
 *   storeConformance('sqlite', async () => openSqliteStore(':memory:'));
 */
import assert from 'node:assert/strict';
import { accountConformance } from './accounts/conformance.ts';
import { billingConformance } from './billing/conformance.ts';
import { partSuite, type OpenStore, type SuiteOptions } from './conformance-kit.ts';
import { requestConformance } from './requests/conformance.ts';
import { resultConformance } from './results/conformance.ts';
import { taskConformance } from './tasks/conformance.ts';
import { webhookConformance } from './webhooks/conformance.ts';
import { waitingConformance } from './requests/waiting-conformance.ts';

export function storeConformance(name: string, open: OpenStore, opts: SuiteOptions = {}): void {
  for (const part of [accountConformance, requestConformance, waitingConformance, resultConformance, billingConformance, webhookConformance, taskConformance]) part(name, open, opts);

  const { t } = partSuite('store', name, open, opts);
  t('a per-deployment secret is created once and read back the same', async (s) => {
    const [x, y] = await Promise.all([s.secret('cursor'), s.secret('cursor')]);
    assert.equal(x, y);
    assert.ok(x.length >= 32);
    assert.equal(await s.secret('cursor'), x);
    assert.notEqual(await s.secret('other'), x);
  });
}
