/**
 * The accounts part's conformance section: every backend runs it through storeConformance
 * (../conformance.ts). It pins accounts, balances and API keys.
 *
 * @example accountConformance('sqlite', () => openSqliteStore(':memory:'));
 */
import assert from 'node:assert/strict';
import { partSuite, type OpenStore, type SuiteOptions } from '../conformance-kit.ts';

export function accountConformance(name: string, open: OpenStore, opts: SuiteOptions = {}): void {
  const { t, account } = partSuite('accounts', name, open, opts);

  t('accounts, balances and keys', async (s) => {
    const a = await account(s, 5);
    assert.equal((await s.getAccount(a.id))?.balanceMicros, 5_000_000);
    assert.equal(await s.addBalance(a.id, 2_500_000), 7_500_000);
    const k = await s.addApiKey(a.id, 'hash-1', 'trw_abcd', 1);
    assert.equal((await s.findKey('hash-1'))?.account.id, a.id);
    assert.equal(await s.findKey('hash-2'), null);
    assert.equal(await s.revokeApiKey(k.id, 2), true);
    assert.equal(await s.findKey('hash-1'), null);
    assert.equal((await s.listApiKeys(a.id))[0].revokedAt, 2);
    await s.updateAccount(a.id, { pastDue: true, ratePerSec: 5, webhookUrl: 'http://x' });
    const b = await s.getAccount(a.id);
    assert.equal(b?.pastDue, true);
    assert.equal(b?.ratePerSec, 5);
    assert.equal(b?.webhookUrl, 'http://x');
    assert.ok((await s.countAccounts()) >= 1);
  });
}
