/**
 * Task bounds (issue 28, item 3): POST /tasks takes at most 256 KiB (413 naming the operation) and
 * each list field has a cap (422 naming the field); GET /tasks lists a bounded summary of each task,
 * never its body, so listings of the largest allowed tasks leave `/health` answering quickly.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { startHarness, type Harness } from './support/harness.ts';
import { TASK_BODY_LIMIT } from '../src/contract/account.ts';
import { SUMMARY_ITEMS, SUMMARY_MAX_CHARS, SUMMARY_TEXT } from '../src/store/tasks/summary.ts';
import type { SqliteStore } from '../src/store/sqlite/store.ts';

const post = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** The largest task body the caps allow: 1000 queries filling 256 KiB, plus long declared and unknown fields. */
function largestBody(i: number) {
  const base = { service_name: 'engine_maps_service_v2', tags: [`t${i}`], settings: { output_columns: Array.from({ length: 500 }, (_, c) => `column_${c}`) },
    categories: ['c'.repeat(500)], note: 'x' };
  const room = TASK_BODY_LIMIT - JSON.stringify({ ...base, queries: Array(1000).fill('') }).length - 64;
  const each = Math.floor(room / 1000);
  return { ...base, queries: Array.from({ length: 1000 }, (_, q) => `${q} ${'q'.repeat(each - 8)}`.slice(0, each)) };
}

/** `clients` loops of `n` GETs of `url` each, on a worker thread: the sizes of the answers. */
function listingsOff(h: Harness, url: string, clients: number, n: number): Promise<number[]> {
  const code = `const { parentPort, workerData: w } = require('node:worker_threads');
    Promise.all(Array.from({ length: w.clients }, async () => { const out = [];
      for (let i = 0; i < w.n; i++) out.push((await (await fetch(w.url, { headers: { 'x-api-key': w.key } })).text()).length);
      return out; })).then((r) => parentPort.postMessage(r.flat()));`;
  const worker = new Worker(code, { eval: true, workerData: { url, key: h.key, clients, n } });
  return new Promise((resolve, reject) => {
    worker.once('message', (sizes: number[]) => { void worker.terminate(); resolve(sizes); });
    worker.once('error', reject);
  });
}

/** /health answer times (ms) while `load` runs. */
async function probeHealth(h: Harness, load: Promise<number[]>): Promise<{ worst: number; median: number; sizes: number[] }> {
  let running = true;
  void load.finally(() => { running = false; }).catch(() => {});
  const probes: number[] = [];
  while (running) {
    const t0 = performance.now();
    assert.equal((await h.get('/health', { key: null })).status, 200);
    probes.push(performance.now() - t0);
  }
  probes.sort((a, b) => a - b);
  return { worst: probes[probes.length - 1], median: probes[probes.length >> 1], sizes: await load };
}

test('POST /tasks: a body past 256 KiB is 413 before it is read; each list field past its cap is 422 naming it', async () => {
  const h = await startHarness({ settings: { workers: false } });
  try {
    const fits = largestBody(0);
    assert.ok(JSON.stringify(fits).length <= TASK_BODY_LIMIT);
    assert.equal((await h.json('/tasks', post(fits))).status, 200);
    for (const size of [TASK_BODY_LIMIT + 1, 1024 * 1024 - 100]) {
      const big = await h.json('/tasks', post({ queries: ['pizza'], note: 'n'.repeat(size) }));
      assert.equal(big.status, 413, String(size));
      assert.equal(big.body.errorMessage, '413 Payload Too Large: the body is larger than 256 KiB, the most POST /tasks takes');
    }
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ tags: Array(101).fill('t') }, /^422 Unprocessable Entity: tags: /],
      [{ tags: ['t'.repeat(201)] }, /^422 Unprocessable Entity: tags\.0: /],
      [{ settings: { output_columns: Array(501).fill('name') } }, /^422 Unprocessable Entity: settings\.output_columns: /],
      [{ settings: { output_columns: ['n'.repeat(201)] } }, /^422 Unprocessable Entity: settings\.output_columns\.0: /],
      [{ filters: Array(101).fill({ key: 'rating', operator: 'is blank' }) }, /^422 Unprocessable Entity: filters: /],
      [{ categories: Array(1001).fill('c') }, /^422 Unprocessable Entity: categories: /],
      [{ locations: ['l'.repeat(501)] }, /^422 Unprocessable Entity: locations\.0: /],
      [{ enrichments: Array(51).fill('e') }, /^422 Unprocessable Entity: enrichments: /],
    ];
    for (const [extra, want] of cases) {
      const r = await h.json('/tasks', post({ queries: ['pizza'], ...extra }));
      assert.equal(r.status, 422, JSON.stringify(extra).slice(0, 80));
      assert.match(r.body.errorMessage, want);
    }
  } finally { await h.close(); }
});

test('GET /tasks lists a bounded summary: 40 of the largest tasks and 6 listings at once leave /health answering quickly', async () => {
  const h = await startHarness({ settings: { workers: false } });
  try {
    for (let i = 0; i < 40; i++) assert.equal((await h.json('/tasks', post(largestBody(i)))).status, 200);
    // ZIP by ZIP: 50,000 queries stored with one task.
    const zips = await h.json('/tasks', post({ categories: ['dentist'], locations: ['US>California'], useZipCodes: true, tags: ['zips'] }));
    assert.equal(zips.status, 200, JSON.stringify(zips.body));
    const page = await h.get('/tasks?pageSize=100');
    const text = await page.text();
    const { tasks } = JSON.parse(text);
    assert.equal(tasks.length, 41);
    assert.ok(text.length < 41 * SUMMARY_MAX_CHARS, `listing of 41 tasks is ${text.length} characters`);
    const [zip, largest] = tasks;
    assert.ok(zip.metadata.queries_count > 1000, `${zip.metadata.queries_count} ZIP queries`);
    assert.equal(zip.metadata.queries.length, SUMMARY_ITEMS);
    assert.deepEqual(zip.metadata.tags, ['zips']);
    assert.equal(largest.metadata.service_name, 'engine_maps_service_v2');
    assert.equal(largest.metadata.queries_count, 1000);
    assert.ok(largest.metadata.queries.every((q: string) => q.length <= SUMMARY_TEXT));
    assert.equal(largest.metadata.settings.output_columns.length, SUMMARY_ITEMS);
    assert.equal(largest.metadata.settings.output_columns_count, 500);
    assert.equal(largest.metadata.categories[0].length, SUMMARY_TEXT);
    assert.equal(largest.metadata.note, undefined, 'fields the body does not declare are not listed');
    assert.deepEqual(Object.keys(largest).sort(), ['created', 'id', 'metadata', 'queue_task_id', 'results', 'status', 'updated', 'user_id']);

    // Six listings of the largest page at once, from a thread of their own (their clients' parsing is
    // not the server's work), while /health is probed; before them the same calls of a cheap operation
    // (the failed-webhook log) give the box's own noise in this run (2 shared cores, often loaded).
    const baseline = await probeHealth(h, listingsOff(h, `${h.url}/webhook-calls`, 6, 5));
    const during = await probeHealth(h, listingsOff(h, `${h.url}/tasks?pageSize=100`, 6, 5));
    assert.deepEqual(during.sizes, Array(30).fill(text.length));
    // Listing stays a millisecond of server work a page; what is left is the box and this process's
    // collector (pauses of 20-50 ms after the tasks were made). Full bodies listed stalled it 1.9-4.2 s.
    const bound = Math.max(250, 4 * baseline.worst);
    assert.ok(during.worst < bound, `/health took up to ${during.worst.toFixed(1)} ms during the listings (median ${during.median.toFixed(1)}), `
      + `up to ${baseline.worst.toFixed(1)} ms during as many cheap calls`);
  } finally { await h.close(); }
});

test('a task stored before summaries is summarised from its body when listed', async () => {
  const h = await startHarness({ settings: { workers: false } });
  try {
    assert.equal((await h.json('/tasks', post({ queries: Array.from({ length: 30 }, (_, i) => `q${i}`), tags: ['old'], language: 'de' }))).status, 200);
    (h.svc.ctx.store as unknown as SqliteStore).h.db.exec('UPDATE tasks SET summary = NULL');
    const [t] = (await h.json('/tasks')).body.tasks;
    assert.deepEqual(t.metadata, { service_name: 'engine_maps_service_v2', queries: Array.from({ length: 10 }, (_, i) => `q${i}`), queries_count: 30,
      tags: ['old'], language: 'de', settings: {} });
  } finally { await h.close(); }
});
