import { storeConformance } from '../conformance.ts';
import { openSqliteStore } from './store.ts';

storeConformance('sqlite', () => openSqliteStore(':memory:'));

import { test } from 'node:test';
import assert from 'node:assert/strict';

test('group commit: a failing write in a batch fails alone; the others commit', async () => {
  const s = await openSqliteStore(':memory:');
  try {
    const a = await s.createAccount({ id: 'acct', name: 'a', balance: 1, creditLimit: 0, currency: 'usd', pastDue: false, webhookSecret: 's', webhookUrl: null, ratePerSec: 1, burst: 1 });
    const base = { accountId: a.id, endpoint: '/x', params: {}, queries: ['q'], webhook: null, product: 'p', unit: 'u', unitPrice: 0, emptyCostsOne: false, dropDuplicates: false, taskId: null, maxAttempts: 1, createdAt: 1 };
    // Same turn of the event loop: one batch. The second reuses an id and must fail by itself.
    const results = await Promise.allSettled([
      s.createRequest({ ...base, id: 'r1' }),
      s.createRequest({ ...base, id: 'r1' }),
      s.createRequest({ ...base, id: 'r2' }),
    ]);
    assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled']);
    assert.ok(await s.getRequest('r1'));
    assert.ok(await s.getRequest('r2'));
  } finally { await s.close(); }
});
