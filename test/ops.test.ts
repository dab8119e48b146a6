/**
 * Operations endpoints, in process (no external service needed):
 * - /metrics after some traffic holds the named series with sensible labels and values: HTTP requests
 *   by route and status, work items by state, queue depth, source errors by type, billed units;
 * - /ready fails (503 JSON, the store named) and API calls answer 503 JSON while the store cannot be
 *   reached; /health stays 200.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHarness } from './support/harness.ts';
import { settingsFromEnv } from '../src/config/settings.ts';
import { startService } from '../src/service/start.ts';
import { createLogger } from '../src/ops/log.ts';
import { MemoryRateLimiter } from '../src/billing/rate-limit.ts';
import { EmbeddedQueue } from '../src/engine/backends/embedded.ts';
import { PostgresStore } from '../src/store/postgres/store.ts';
import { freePort } from '../src/store/postgres/private-server.ts';
import { testRegistry } from './support/test-adapter.ts';
import { parseMetrics, pick } from './support/prom.ts';

test('/metrics after traffic: requests by route and status, items by state, queue depth, source errors by type, billed units', async () => {
  const h = await startHarness();
  try {
    const ok1 = await h.json('/maps/search?query=n=2&async=false');
    assert.equal(ok1.status, 200);
    const ok2 = await h.json('/maps/search?query=n=3&query=empty&async=false');
    assert.equal(ok2.status, 200);
    const failed = await h.json('/maps/search?query=fail&async=false');
    assert.equal(failed.status, 200);
    assert.equal((await h.json('/profile/balance', { key: 'trw_not_a_key' })).status, 401);
    assert.equal((await h.json(`/requests/${ok1.body.id}`)).status, 200);

    const res = await fetch(`${h.url}/metrics`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/plain/);
    const text = await res.text();
    for (const name of ['trawl_http_requests_total', 'trawl_work_items', 'trawl_queue_depth', 'trawl_source_errors_total', 'trawl_billed_units_total', 'trawl_work_items_run_total', 'trawl_work_item_seconds']) {
      assert.match(text, new RegExp(`^# TYPE ${name} `, 'm'), `${name} is declared`);
    }
    const m = parseMetrics(text);
    assert.equal(pick(m, 'trawl_http_requests_total', { method: 'GET', route: '/maps/search', status: '200' }), 3);
    assert.equal(pick(m, 'trawl_http_requests_total', { route: '/profile/balance', status: '401' }), 1);
    assert.equal(pick(m, 'trawl_http_requests_total', { route: '/requests/:requestId', status: '200' }), 1, 'routes are labelled by pattern, not by id');
    assert.ok(![...m.keys()].some((k) => k.includes(ok1.body.id)), 'no request id in a label');

    // 4 queries ran: 3 done, 1 failed for good; nothing waits.
    assert.equal(pick(m, 'trawl_work_items', { state: 'done' }), 3);
    assert.equal(pick(m, 'trawl_work_items', { state: 'failed' }), 1);
    assert.equal(pick(m, 'trawl_work_items', { state: 'queued' }), 0);
    assert.equal(pick(m, 'trawl_queue_depth'), 0);
    assert.equal(pick(m, 'trawl_work_items_run_total', { endpoint: '/maps/search', outcome: 'done' }), 3);
    assert.equal(pick(m, 'trawl_work_items_run_total', { endpoint: '/maps/search', outcome: 'failed' }), 1);
    assert.equal(pick(m, 'trawl_work_item_seconds_count', { endpoint: '/maps/search' }), 4);
    assert.equal(pick(m, 'trawl_source_errors_total', { endpoint: '/maps/search', type: 'layout_changed' }), 1);

    // Billed units equal what the store billed the three requests.
    let usage = 0;
    for (const id of [ok1.body.id, ok2.body.id, failed.body.id]) usage += (await h.svc.ctx.store.getRequest(id))!.usage;
    assert.ok(usage >= 5, `the requests billed their records (${usage})`);
    assert.equal(pick(m, 'trawl_billed_units_total', { unit: 'place' }), usage);
    const rss = [...m].find(([k]) => /^trawl_process_resident_memory_bytes$/.test(k));
    assert.ok(rss && rss[1] > 1e6, 'process metrics (trawl_process_ prefix) are there too');
  } finally {
    await h.close();
  }
});

test('/metrics of an API-only process: queued work shows as queue depth and items by state', async () => {
  const h = await startHarness({ settings: { workers: false } });
  try {
    const sub = await h.json('/maps/search?query=n=1&query=n=2&query=n=3');
    assert.equal(sub.status, 202);
    const m = parseMetrics(await (await fetch(`${h.url}/metrics`)).text());
    assert.equal(pick(m, 'trawl_work_items', { state: 'queued' }), 3);
    assert.equal(pick(m, 'trawl_queue_depth'), 3);
    assert.equal(pick(m, 'trawl_http_requests_total', { route: '/maps/search', status: '202' }), 1);
  } finally {
    await h.close();
  }
});

test('store unreachable: /ready 503 naming the store, API calls 503 JSON, /health 200, /metrics 200', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-ops-'));
  // A PostgreSQL store on a port nobody listens on: every query is refused, as during an outage.
  const store = new PostgresStore(`postgres://postgres@127.0.0.1:${await freePort()}/none`, { connectTimeoutMs: 2_000 });
  const queue = new EmbeddedQueue(store);
  const settings = { ...settingsFromEnv({}), port: 0, dataDir: dir, workers: false, logLevel: 'silent' };
  const svc = await startService({
    settings, adapters: testRegistry(), log: createLogger('silent'), env: {},
    backends: { store, queue, rateLimiter: new MemoryRateLimiter(), close: async () => { await queue.close(); await store.close(); } },
  });
  try {
    const url = await svc.server.listen({ port: 0, host: '127.0.0.1' });
    const ready = await fetch(`${url}/ready`);
    assert.equal(ready.status, 503);
    const rb = await ready.json() as any;
    assert.equal(rb.error, true);
    assert.match(rb.errorMessage, /^503 Service Unavailable: /);
    assert.match(rb.checks.store, /^unavailable: /);
    assert.equal((await fetch(`${url}/health`)).status, 200);
    assert.equal((await fetch(`${url}/metrics`)).status, 200, 'metrics still answer (gauges keep their last values)');
    for (const path of ['/profile/balance', '/maps/search?query=n=1', '/requests/00000000-0000-4000-8000-000000000000']) {
      const res = await fetch(`${url}${path}`, { headers: { 'x-api-key': 'trw_some_key_value' } });
      assert.equal(res.status, 503, path);
      assert.match(res.headers.get('content-type') ?? '', /application\/json/);
      assert.equal(res.headers.get('retry-after'), '5');
      const body = await res.json() as any;
      assert.deepEqual(Object.keys(body).sort(), ['error', 'errorMessage']);
      assert.match(body.errorMessage, /^503 Service Unavailable: the store is unavailable/);
    }
  } finally {
    await svc.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('listenOps (worker-only processes): /health, /ready and /metrics on their own port, no API', async () => {
  const h = await startHarness();
  try {
    await h.json('/maps/search?query=fail&async=false');
    const ops = await h.svc.listenOps(0, '127.0.0.1');
    assert.notEqual(ops, h.url);
    assert.equal((await fetch(`${ops}/health`)).status, 200);
    assert.equal((await fetch(`${ops}/ready`)).status, 200);
    const m = parseMetrics(await (await fetch(`${ops}/metrics`)).text());
    assert.equal(pick(m, 'trawl_source_errors_total', { type: 'layout_changed' }), 1, 'the same registry as the process');
    const api = await fetch(`${ops}/maps/search?query=n=1`, { headers: { 'x-api-key': h.key } });
    assert.equal(api.status, 404);
    assert.match((await api.json() as any).errorMessage, /^404 Not Found: this port serves \/health, \/ready and \/metrics only/);
  } finally {
    await h.close();
  }
});
