/**
 * Account use cases: create accounts and keys (CLI), authenticate a key (HTTP).
 *
 * @example
 *   const { account, apiKey } = await createAccount(ctx, { name: 'acme', balance: 50 });
 *   await authenticate(ctx, apiKey) // account
 */
import { randomUUID } from 'node:crypto';
import type { Account, Store } from '../store/contract.ts';
import type { Settings } from '../config/settings.ts';
import { hashKey, keyPrefix, newApiKey, newWebhookSecret, sameHash } from './keys.ts';

export interface NewAccount {
  name: string;
  balance?: number;
  creditLimit?: number;
  ratePerSec?: number;
  burst?: number;
  currency?: string;
}

export async function createAccount(store: Store, settings: Pick<Settings, 'defaultRatePerSec' | 'defaultBurst' | 'defaultCurrency'>, a: NewAccount, now = Date.now()) {
  const account = await store.createAccount({
    id: randomUUID(), name: a.name, balance: a.balance ?? 0, creditLimit: a.creditLimit ?? 0, currency: a.currency ?? settings.defaultCurrency,
    pastDue: false, webhookSecret: newWebhookSecret(), webhookUrl: null, ratePerSec: a.ratePerSec ?? settings.defaultRatePerSec,
    burst: a.burst ?? settings.defaultBurst, createdAt: now,
  });
  const apiKey = await createApiKey(store, account.id, now);
  return { account, apiKey: apiKey.key, keyId: apiKey.id };
}

export async function createApiKey(store: Store, accountId: string, now = Date.now()) {
  const key = newApiKey();
  const row = await store.addApiKey(accountId, hashKey(key), keyPrefix(key), now);
  return { key, id: row.id };
}

/** The account of a key, or null. The stored hash is compared again in constant time. */
export async function authenticate(store: Store, key: string | undefined): Promise<Account | null> {
  if (!key || key.length > 200) return null;
  const h = hashKey(key);
  const hit = await store.findKey(h);
  return hit && sameHash(hit.keyHash, h) ? hit.account : null;
}

export async function rotateWebhookSecret(store: Store, accountId: string): Promise<string> {
  const secret = newWebhookSecret();
  await store.updateAccount(accountId, { webhookSecret: secret });
  return secret;
}
