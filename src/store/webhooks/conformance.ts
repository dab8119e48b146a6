/**
 * The webhooks part's conformance section: every backend runs it through storeConformance
 * (../conformance.ts). It pins deliveries created when a request ends, their leases, and the failed-call log.
 *
 * @example webhookConformance('sqlite', () => openSqliteStore(':memory:'));
 */
import assert from 'node:assert/strict';
import { partSuite, type OpenStore, type SuiteOptions } from '../conformance-kit.ts';

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
}
