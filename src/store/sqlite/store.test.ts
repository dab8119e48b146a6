import { storeConformance } from '../conformance.ts';
import { openSqliteStore } from './store.ts';

storeConformance('sqlite', () => openSqliteStore(':memory:'));

import { test } from 'node:test';
import assert from 'node:assert/strict';

test('group commit: a failing write in a batch fails alone; the others commit', async () => {
  const s = await openSqliteStore(':memory:');
  try {
    const a = await s.createAccount({ id: 'acct', name: 'a', balanceMicros: 1_000_000, creditLimitMicros: 0, currency: 'usd', pastDue: false, webhookSecret: 's', webhookUrl: null, ratePerSec: 1, burst: 1 });
    const base = { accountId: a.id, endpoint: '/x', params: {}, queries: ['q'], webhook: null, product: 'p', unit: 'u', unitPriceMicros: 0, emptyCostsOne: false, dropDuplicates: false, taskId: null, maxAttempts: 1, createdAt: 1 };
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

test('a purge returns the freed pages to the file system (auto_vacuum = INCREMENTAL on a new database)', async () => {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = mkdtempSync(join(tmpdir(), 'trawl-vacuum-'));
  // Text as stored (no compression): the rows must fill enough pages for the shrink to show.
  const s = await openSqliteStore(join(dir, 'trawl.db'), { compression: null });
  try {
    assert.equal(s.db.pragma('auto_vacuum', { simple: true }), 2, 'incremental');
    const a = await s.createAccount({ id: 'acct', name: 'a', balanceMicros: 1_000_000, creditLimitMicros: 0, currency: 'usd', pastDue: false, webhookSecret: 's', webhookUrl: null, ratePerSec: 1, burst: 1 });
    const big = JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ name: `place ${i}`, text: 'x'.repeat(500) })));
    for (let i = 0; i < 20; i++) {
      await s.createRequest({ id: `r${i}`, accountId: a.id, endpoint: '/x', params: {}, queries: ['q'], webhook: null, product: 'p', unit: 'u', unitPriceMicros: 0, emptyCostsOne: false, dropDuplicates: false, taskId: null, maxAttempts: 1, createdAt: 1 });
      const [it] = await s.claimItems('w', 1, 60_000, 2, [`r${i}:0`]);
      await s.completeItem({ itemId: it.id, owner: 'w', recordsJson: big, count: 200, now: 2 });
    }
    const pages = () => s.db.pragma('page_count', { simple: true }) as number;
    const full = pages();
    assert.equal(await s.purge(10, 0, 100), 20);
    assert.equal(s.db.pragma('freelist_count', { simple: true }), 0, 'no free page left inside the file');
    assert.ok(pages() < full / 2, `the file shrank: ${full} → ${pages()} pages`);
  } finally { await s.close(); rmSync(dir, { recursive: true, force: true }); }
});
