/**
 * The webhooks part's conformance section: every backend runs it through storeConformance
 * (../conformance.ts). It pins deliveries created when a request ends, their leases, the failed-call
 * log, and subscriptions (POST /webhooks): per account, capped, and their deliveries made with the
 * request's end (every way a request ends) and with a task's file.
 *
 * @example webhookConformance('sqlite', () => openSqliteStore(':memory:'));
 */
import assert from 'node:assert/strict';
import { partSuite, type OpenStore, type SuiteOptions } from '../conformance-kit.ts';
import type { Store, WebhookDelivery, WebhookSubscription } from '../contract.ts';

const sub = (accountId: string, id: string, events: WebhookSubscription['events'], created: number): WebhookSubscription =>
  ({ id, accountId, url: `http://127.0.0.1:9/${id}`, events, description: null, created });

/** Every due delivery's (id, request, url, event, subscription), sorted by id; the claim leases them for good. */
async function due(s: Store, now: number): Promise<Omit<WebhookDelivery, 'accountId' | 'attempts'>[]> {
  return (await s.claimDueWebhooks(now, 100, 1e9)).map(({ id, requestId, url, event, subscriptionId }) => ({ id, requestId, url, event, subscriptionId }))
    .sort((a, b) => a.id.localeCompare(b.id));
}

export function webhookConformance(name: string, open: OpenStore, opts: SuiteOptions = {}): void {
  const { t, account, request } = partSuite('webhooks', name, open, opts);

  t('webhook deliveries: due, leased, attempts logged as failed calls', async (s) => {
    const a = await account(s, 10, { webhookUrl: 'http://127.0.0.1:9/integration' });
    const r = request(a.id, ['a']);
    await s.createRequest(r);
    const [it] = await s.claimItems('w', 1, 60_000, 10_000);
    await s.completeItem({ itemId: it.id, owner: 'w', recordsJson: '[]', count: 0, now: 10_000 });
    const [d] = await s.claimDueWebhooks(10_000, 5, 5_000);
    assert.equal(d.url, 'http://127.0.0.1:9/integration', 'the account integration webhook is used when the request has none');
    assert.equal((await s.claimDueWebhooks(10_001, 5, 5_000)).length, 0, 'leased');
    await s.recordWebhookAttempt(d.id, 500, false, 70_000, 10_002);
    await s.recordWebhookAttempt(d.id, 0, false, null, 70_001);
    assert.equal((await s.claimDueWebhooks(80_000, 5, 5_000)).length, 0, 'failed for good');
    const calls = await s.listWebhookCalls(a.id, 0, 100);
    assert.deepEqual(calls, [{ status: 'Status code: 0', date: 70 }, { status: 'Status code: 500', date: 10 }]);
  });

  t('webhook subscriptions: per account, newest first, capped, deleted only by their account', async (s) => {
    const a = await account(s);
    const b = await account(s);
    assert.equal(await s.createWebhookSubscription(sub(a.id, 'whs_1', ['request.finished'], 1_000), 2), true);
    assert.equal(await s.createWebhookSubscription({ ...sub(a.id, 'whs_2', ['task.file_ready', 'monitor.changes'], 2_000), description: 'n8n' }, 2), true);
    assert.equal(await s.createWebhookSubscription(sub(a.id, 'whs_3', ['request.finished'], 3_000), 2), false, 'the cap holds');
    assert.equal(await s.createWebhookSubscription(sub(b.id, 'whs_b', ['request.finished'], 3_000), 2), true, 'the cap is per account');
    assert.deepEqual(await s.listWebhookSubscriptions(a.id), [
      { id: 'whs_2', accountId: a.id, url: 'http://127.0.0.1:9/whs_2', events: ['task.file_ready', 'monitor.changes'], description: 'n8n', created: 2_000 },
      { id: 'whs_1', accountId: a.id, url: 'http://127.0.0.1:9/whs_1', events: ['request.finished'], description: null, created: 1_000 },
    ]);
    assert.deepEqual((await s.listWebhookSubscriptions(b.id)).map((x) => x.id), ['whs_b'], 'an account sees only its own');
    assert.equal(await s.deleteWebhookSubscription(b.id, 'whs_1'), false, 'another account cannot delete it');
    assert.equal(await s.deleteWebhookSubscription(a.id, 'whs_1'), true);
    assert.equal(await s.deleteWebhookSubscription(a.id, 'whs_1'), false, 'gone');
    assert.deepEqual((await s.listWebhookSubscriptions(a.id)).map((x) => x.id), ['whs_2']);
  });

  t('webhook subscriptions: a delivery per subscribed event, however the request ends; none for another account', async (s) => {
    const a = await account(s);
    const other = await account(s);
    await s.createWebhookSubscription(sub(a.id, 'whs_r', ['request.finished'], 1), 10);
    await s.createWebhookSubscription(sub(a.id, 'whs_m', ['monitor.changes', 'task.file_ready'], 2), 10);
    await s.createWebhookSubscription(sub(other.id, 'whs_o', ['request.finished', 'monitor.changes', 'task.file_ready'], 3), 10);
    const ended = async (patch: Parameters<typeof request>[2], end: (itemIds: string[], r: { id: string }) => Promise<unknown>, queries = ['a']) => {
      const r = request(a.id, queries, patch);
      await s.createRequest(r);
      const items = await s.claimItems('w', queries.length, 60_000, 10_000, queries.map((_, i) => `${r.id}:${i}`));
      await end(items.map((i) => i.id), r);
      return r.id;
    };
    const complete = (ids: string[]) => Promise.all(ids.map((itemId) => s.completeItem({ itemId, owner: 'w', recordsJson: '[]', count: 0, now: 10_000 })));
    const plain = await ended({ webhook: 'http://127.0.0.1:9/own' }, complete, ['a', 'b']);
    const deduped = await ended({ dropDuplicates: true }, (ids) => Promise.all(ids.map((itemId) =>
      s.completeItem({ itemId, owner: 'w', recordsJson: '[]', count: 0, dedupeKeys: [], now: 10_000 }))));
    const failed = await ended({}, (ids) => s.failItem(ids[0], 'w', 'broken', null, 10_000));
    const cancelled = await ended({}, async (_ids, r) => s.cancelRequest(r.id, 10_000), ['a', 'b']);
    const run = await ended({ params: { limit: 3, _monitorRun: 'run-1' } }, complete);
    const mine = (id: string, subId: string, event: string) => ({ id: `${id}|${subId}|${event}`, requestId: id, url: `http://127.0.0.1:9/${subId}`, event, subscriptionId: subId });
    assert.deepEqual(await due(s, 10_000), [
      { id: plain, requestId: plain, url: 'http://127.0.0.1:9/own', event: null, subscriptionId: null },
      mine(plain, 'whs_r', 'request.finished'), mine(deduped, 'whs_r', 'request.finished'), mine(failed, 'whs_r', 'request.finished'),
      mine(cancelled, 'whs_r', 'request.finished'), mine(run, 'whs_m', 'monitor.changes'), mine(run, 'whs_r', 'request.finished'),
    ].sort((x, y) => x.id.localeCompare(y.id)));
    // A task's file written: its subscribers' task.file_ready, once however often the task is written.
    const base = { accountId: a.id, spec: {}, status: 'PENDING' as const, format: 'csv', fileToken: null, filePath: null, results: [], created: 1, updated: 1, queueTaskId: 'q' };
    await s.createTask({ ...base, id: '20260101000000aaaa', serviceName: 'svc', queries: ['a'], tags: [], requestId: plain });
    await s.updateTask('20260101000000aaaa', { status: 'RUNNING', updated: 11_000 });
    assert.deepEqual(await due(s, 20_000), [], 'no file yet');
    await s.updateTask('20260101000000aaaa', { status: 'SUCCESS', fileToken: 'tok', filePath: '/f', updated: 12_000 });
    await s.updateTask('20260101000000aaaa', { status: 'SUCCESS', fileToken: 'tok', filePath: '/f', updated: 12_000 });
    assert.deepEqual(await due(s, 20_000), [mine(plain, 'whs_m', 'task.file_ready')]);
  });
}
