import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SAMPLE, businessConformance } from './conformance.ts';
import { businessStoreOf } from './index.ts';
import { openSqliteStore } from '../sqlite/store.ts';

businessConformance('sqlite', () => openSqliteStore(':memory:'));
import { businessFilterConformance } from './conformance-filters.ts';

businessFilterConformance('sqlite', () => openSqliteStore(':memory:'));

test('sqlite business capture: a place found again as it was within the second of its `updated` time is not written again', async () => {
  const s = await openSqliteStore(':memory:');
  try {
    const b = businessStoreOf(s);
    await b.upsertBusinesses('a1', SAMPLE, 1_000_000);
    const stored = () => (s.db.prepare('SELECT updated FROM businesses WHERE owner = ? AND os_id = ?').get('a1', SAMPLE[0].os_id) as { updated: number }).updated;
    const changes = () => (s.db.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
    const before = changes();
    assert.deepEqual(await b.upsertBusinesses('a1', SAMPLE, 1_000_999), { added: 0, updated: SAMPLE.length });
    assert.equal(changes(), before, 'no row written');
    assert.equal(stored(), 1_000_000);
    await b.upsertBusinesses('a1', SAMPLE, 1_001_000);
    assert.equal(stored(), 1_001_000);
    assert.equal(changes(), before + SAMPLE.length);
  } finally { await s.close(); }
});
