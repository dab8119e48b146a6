/**
 * Accounts and API keys, the store's first part (issue 16): who may call, with what balance, credit,
 * rate and integration webhook. Keys are stored hashed; the caller compares in constant time.
 *
 * @example const found = await store.findKey(sha256(key)); found?.account.balanceMicros
 */
import type { Micros } from '../../billing/money.ts';

export interface Account {
  id: string;
  name: string;
  balanceMicros: Micros;
  /** Work may draw the balance down to -creditLimitMicros (decision 26). */
  creditLimitMicros: Micros;
  currency: string;
  pastDue: boolean;
  webhookSecret: string;
  /** Integration webhook used when a request gives none. */
  webhookUrl: string | null;
  /** Token bucket: average requests per second and burst (decision 21). */
  ratePerSec: number;
  burst: number;
  createdAt: number;
}

export interface ApiKeyRow {
  id: string;
  accountId: string;
  /** First characters of the key, to tell keys apart in listings; never enough to use it. */
  prefix: string;
  createdAt: number;
  revokedAt: number | null;
}

export interface AccountStore {
  createAccount(a: Omit<Account, 'createdAt'> & { createdAt?: number }): Promise<Account>;
  getAccount(id: string): Promise<Account | null>;
  listAccounts(): Promise<Account[]>;
  countAccounts(): Promise<number>;
  updateAccount(id: string, patch: Partial<Omit<Account, 'id' | 'createdAt' | 'balanceMicros'>>): Promise<void>;
  /** Adds (or, negative, takes) an amount; returns the new balance. */
  addBalance(id: string, amountMicros: Micros): Promise<Micros>;
  addApiKey(accountId: string, keyHash: string, prefix: string, now: number): Promise<ApiKeyRow>;
  /** Returns the account and the stored hash; the caller compares in constant time. */
  findKey(keyHash: string): Promise<{ account: Account; keyHash: string; keyId: string } | null>;
  listApiKeys(accountId: string): Promise<ApiKeyRow[]>;
  revokeApiKey(keyId: string, now: number): Promise<boolean>;
}
