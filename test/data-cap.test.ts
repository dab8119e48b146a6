/**
 * DATA_MAX_BYTES (issue 15): at the cap, new work (requests, tasks) is refused with a 503 error body
 * and nothing of it is stored; what is stored stays readable; once there is room again, work is
 * accepted. The size is re-measured every CHECK_MS of the service clock.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, until } from './support/harness.ts';
import { CHECK_MS, dataBytes } from '../src/app/data-cap.ts';
import { byteSize } from '../src/config/settings.ts';

test('DATA_MAX_BYTES: at the cap submits and tasks answer 503 JSON, stored results stay readable; under it work is accepted again', { timeout: 60_000 }, async () => {
  const h = await startHarness({ settings: { dataMaxBytes: 1024 ** 4 } });
  try {
    const first = await h.json('/maps/search?query=n%3D30');
    assert.equal(first.status, 202);
    const done = await until(async () => { const r = await h.json(`/requests/${first.body.id}`); return r.body.status === 'Success' ? r : null; });
    assert.equal(done.body.data[0].length, 30);

    const used = await dataBytes(h.svc.ctx);
    assert.ok(used > 0, 'the store reports its size');
    h.svc.ctx.settings.dataMaxBytes = used;
    h.clock.offset += CHECK_MS;
    const refused = await h.json('/maps/search?query=n%3D1');
    assert.equal(refused.status, 503);
    assert.equal(refused.body.error, true);
    assert.match(refused.body.errorMessage, /^503 Service Unavailable: stored data is at its limit \(\d+ of DATA_MAX_BYTES=\d+ bytes\)/);
    assert.equal(refused.headers.get('retry-after'), '60');
    const task = await h.json('/tasks', { method: 'POST', body: JSON.stringify({ queries: ['n=1'] }), headers: { 'content-type': 'application/json' } });
    assert.equal(task.status, 503);
    assert.match(task.body.errorMessage, /DATA_MAX_BYTES/);
    const sync = await h.json('/maps/search?query=n%3D1&async=false');
    assert.equal(sync.status, 503);
    const listed = await h.svc.ctx.store.listRequests(h.account.id, { finished: false, since: 0, skip: 0, limit: 10 });
    assert.equal(listed.length, 0, 'nothing of the refused work was stored');
    const again = await h.json(`/requests/${first.body.id}`);
    assert.equal(again.status, 200);
    assert.deepEqual(again.body.data, done.body.data, 'stored results intact and readable at the cap');

    h.svc.ctx.settings.dataMaxBytes = used * 4;
    h.clock.offset += CHECK_MS;
    const accepted = await h.json('/maps/search?query=n%3D1');
    assert.equal(accepted.status, 202);
  } finally {
    await h.close();
  }
});

test('DATA_MAX_BYTES takes a byte count with K, M, G or T', () => {
  assert.equal(byteSize(undefined), 0);
  assert.equal(byteSize('1000'), 1000);
  assert.equal(byteSize('50G'), 50 * 1024 ** 3);
  assert.equal(byteSize('1.5 MiB'), 1.5 * 1024 ** 2);
  assert.throws(() => byteSize('lots'), /DATA_MAX_BYTES/);
});
