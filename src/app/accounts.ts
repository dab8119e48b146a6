/**
 * Account use cases: create accounts and keys (CLI), authenticate a key (HTTP).
 *
 * @example
 *   const { account, apiKey } = await createAccount(ctx, { name: 'acme', balanceMicros: 50_000_000 });
 *   await authenticate(ctx, apiKey) // account
 */
import { randomUUID } from 'node:crypto';
import type { Account, Store } from '../store/contract.ts';
import type { Settings } from '../config/settings.ts';
import { hashKey, keyPrefix, newApiKey, newWebhookSecret, sameHash } from './keys.ts';
import { sealSecret } from './secrets.ts';
import type { Micros } from '../billing/money.ts';

export interface NewAccount {
  name: string;
  balanceMicros?: Micros;
  creditLimitMicros?: Micros;
  ratePerSec?: number;
  burst?: number;
  currency?: string;
}

/** The returned account carries its webhook secret in clear; the store holds it sealed when
 *  `settings.secretKey` is set (app/secrets.ts). */
export async function createAccount(store: Store, settings: Pick<Settings, 'defaultRatePerSec' | 'defaultBurst' | 'defaultCurrency'> & { secretKey?: string }, a: NewAccount, now = Date.now()) {
  const webhookSecret = newWebhookSecret();
  const account = await store.createAccount({
    id: randomUUID(), name: a.name, balanceMicros: a.balanceMicros ?? 0, creditLimitMicros: a.creditLimitMicros ?? 0, currency: a.currency ?? settings.defaultCurrency,
    pastDue: false, webhookSecret: sealSecret(webhookSecret, settings.secretKey), webhookUrl: null, ratePerSec: a.ratePerSec ?? settings.defaultRatePerSec,
    burst: a.burst ?? settings.defaultBurst, createdAt: now,
  });
  const apiKey = await createApiKey(store, account.id, now);
  return { account: { ...account, webhookSecret }, apiKey: apiKey.key, keyId: apiKey.id };
}

export async function createApiKey(store: Store, accountId: string, now = Date.now()) {
  const key = newApiKey();
  const row = await store.addApiKey(accountId, hashKey(key), keyPrefix(key), now);
  return { key, id: row.id };
}

/** Accounts of recently seen keys, for a second: a hot client costs neither a hash nor a lookup per
 *  call. Held only in this process's memory; a revoked key or a balance change is seen within that
 *  second. */
const recent = new Map<string, { account: Account; at: number }>();
const RECENT_MS = 1_000;

/** The account of a key, or null. The stored hash is compared again in constant time. */
export async function authenticate(store: Store, key: string | undefined, now = Date.now()): Promise<Account | null> {
  if (!key || key.length > 200) return null;
  const c = recent.get(key);
  if (c && now - c.at < RECENT_MS) return c.account;
  const h = hashKey(key);
  const hit = await store.findKey(h);
  if (!hit || !sameHash(hit.keyHash, h)) {
    recent.delete(key);
    return null;
  }
  if (recent.size > 10_000) recent.clear();
  recent.set(key, { account: hit.account, at: now });
  return hit.account;
}

/** Forgets cached keys (after a revocation or an account change in this process). */
export function forgetRecentKeys(): void {
  recent.clear();
}

/** A new webhook secret, stored sealed when `secretKey` is given; returns it in clear. */
export async function rotateWebhookSecret(store: Store, accountId: string, secretKey?: string): Promise<string> {
  const secret = newWebhookSecret();
  await store.updateAccount(accountId, { webhookSecret: sealSecret(secret, secretKey) });
  forgetRecentKeys();
  return secret;
}
