/**
 * An account and one request of one query in a store, for tests that need a request row to claim,
 * complete and read back (src/app's result tests).
 */
import { randomUUID } from 'node:crypto';
import type { Store } from '../../src/store/contract.ts';

export async function oneRequest(store: Store, balanceMicros: number): Promise<{ accountId: string; id: string }> {
  const accountId = randomUUID();
  await store.createAccount({ id: accountId, name: 't', balanceMicros, creditLimitMicros: 0, currency: 'usd', pastDue: false, webhookSecret: 's', webhookUrl: null, ratePerSec: 1e6, burst: 1e6 });
  const id = randomUUID();
  await store.createRequest({ id, accountId, endpoint: '/test', params: {}, queries: ['q'], webhook: null, product: 'p', unit: 'u', unitPriceMicros: 0,
    emptyCostsOne: false, dropDuplicates: false, taskId: null, maxAttempts: 3, createdAt: Date.now() });
  return { accountId, id };
}
