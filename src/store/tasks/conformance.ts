/**
 * The tasks part's conformance section: every backend runs it through storeConformance
 * (../conformance.ts). It pins tasks: lookups by request and file token, listing by tag with paging and its bounded summary, stranded tasks.
 *
 * @example taskConformance('sqlite', () => openSqliteStore(':memory:'));
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { partSuite, type OpenStore, type SuiteOptions } from '../conformance-kit.ts';

export function taskConformance(name: string, open: OpenStore, opts: SuiteOptions = {}): void {
  const { t, account, request } = partSuite('tasks', name, open, opts);

  t('tasks: create, find by request and file token, list by tag with paging', async (s) => {
    const a = await account(s);
    const base = { accountId: a.id, requestId: null, spec: {}, status: 'PENDING' as const, format: 'csv', fileToken: null, filePath: null,
      results: [], created: 1, updated: 1, queueTaskId: randomUUID() };
    await s.createTask({ ...base, id: '20260101000000aaaa', serviceName: 'engine_maps_service_v2', queries: ['pizza'], tags: ['food'] });
    await s.createTask({ ...base, id: '20260101000001bbbb', serviceName: 'engine_maps_reviews_service_v3', queries: ['x'], tags: ['other'] });
    await s.createTask({ ...base, id: '20260101000002cccc', serviceName: 'engine_maps_service_v2', queries: ['sushi'], tags: ['food'], requestId: 'req-1' });
    assert.deepEqual((await s.listTasks(a.id, { limit: 2 })).map((t) => t.id), ['20260101000002cccc', '20260101000001bbbb']);
    assert.deepEqual((await s.listTasks(a.id, { limit: 2, lastId: '20260101000001bbbb' })).map((t) => t.id), ['20260101000000aaaa']);
    assert.deepEqual((await s.listTasks(a.id, { limit: 10, tag: 'food' })).map((t) => t.id), ['20260101000002cccc', '20260101000000aaaa']);
    assert.deepEqual((await s.listTasks('nobody', { limit: 10 })).length, 0);
    // A listing carries the bounded summary written with the task, never its body and queries.
    const many = Array.from({ length: 25 }, (_, i) => `q${i}`);
    await s.createTask({ ...base, id: '20260101000004eeee', serviceName: 'svc', queries: many, tags: ['big'], spec: { note: 'n', settings: { output_extension: 'csv' } } });
    const [listed] = await s.listTasks(a.id, { limit: 10, tag: 'big' });
    assert.deepEqual(listed.summary, { settings: { output_extension: 'csv' }, service_name: 'svc', queries: many.slice(0, 10), queries_count: 25, tags: ['big'] });
    assert.ok(!('spec' in listed) || (listed as { spec?: unknown }).spec == null);
    assert.deepEqual((await s.getTask('20260101000004eeee'))?.queries, many, 'the task itself keeps every query');
    assert.equal((await s.getTaskByRequest('req-1'))?.id, '20260101000002cccc');
    // A task whose request ended while the task stayed PENDING is stranded (a crash between the two).
    const r = request(a.id, ['q']);
    await s.createRequest(r);
    await s.createTask({ ...base, id: '20260101000003dddd', serviceName: 'x', queries: ['q'], tags: [], requestId: r.id });
    assert.deepEqual(await s.strandedTasks(10), []);
    const [it] = await s.claimItems('w', 1, 60_000, 10_000, [`${r.id}:0`]);
    await s.completeItem({ itemId: it.id, owner: 'w', recordsJson: '[]', count: 0, now: 10_001 });
    assert.deepEqual((await s.strandedTasks(10)).map((t) => t.id), ['20260101000003dddd']);
    await s.updateTask('20260101000000aaaa', { status: 'SUCCESS', fileToken: 'tok', results: [{ product_name: 'p', quantity: 2, file_url: 'u' }], updated: 5 });
    const t1 = await s.getTaskByFileToken('tok');
    assert.equal(t1?.status, 'SUCCESS');
    assert.deepEqual(t1?.results, [{ product_name: 'p', quantity: 2, file_url: 'u' }]);
  });
}
