/**
 * The submit checks' threads (./checks.ts): warmed once the service listens, so the first request
 * with an `area` finds a thread that has already read its data (at load 9-10 a fresh service's first
 * area request waited 17.7 s for its 202 while the thread started, docs/performance/areas.md).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkThreadsStarted, closeChecks, endpointRule, warmChecks } from './checks.ts';
import { mapsSearch } from '../contract/endpoints/maps.ts';

test('warmChecks starts one check thread ahead of the first check; the checks then start none', { timeout: 120_000 }, async () => {
  try {
    assert.equal(checkThreadsStarted(), 0);
    await warmChecks();
    assert.equal(checkThreadsStarted(), 1, 'warming started the thread and waited for its data');
    await warmChecks();
    assert.equal(checkThreadsStarted(), 1, 'warming twice starts no second thread');
    // A check's budget measures the check alone: the warmed thread has its data already.
    assert.equal(await endpointRule(mapsSearch, { area: 'US>Nevada' }, 60_000), undefined);
    assert.match((await endpointRule(mapsSearch, { area: 'US>Qxzzy' }, 60_000))!, /Qxzzy/);
    assert.equal(checkThreadsStarted(), 1, 'the first checks ran on the warmed thread');
  } finally {
    await closeChecks();
  }
});
