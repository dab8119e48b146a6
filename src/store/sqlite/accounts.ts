/**
 * Accounts and API keys on SQLite (../accounts/contract.ts).
 *
 * @example const a = await new SqliteAccounts(h).getAccount('a1');
 */
import { randomUUID } from 'node:crypto';
import type { Account, AccountStore, ApiKeyRow } from '../accounts/contract.ts';
import { ACCOUNT_COLUMNS, toAccount, toApiKey, type Row } from '../rows.ts';
import type { SqliteDb } from './handle.ts';

export class SqliteAccounts implements AccountStore {
  constructor(private readonly h: SqliteDb) {}

  async createAccount(a: Omit<Account, 'createdAt'> & { createdAt?: number }): Promise<Account> {
    const createdAt = a.createdAt ?? Date.now();
    this.h.s(`INSERT INTO accounts (id, name, balance_micros, credit_limit_micros, currency, past_due, webhook_secret, webhook_url, rate_per_sec, burst, created_at)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(a.id, a.name, a.balanceMicros, a.creditLimitMicros, a.currency, a.pastDue ? 1 : 0, a.webhookSecret, a.webhookUrl, a.ratePerSec, a.burst, createdAt);
    return { ...a, createdAt };
  }

  async getAccount(id: string): Promise<Account | null> {
    const r = this.h.s('SELECT * FROM accounts WHERE id = ?').get(id) as Row | undefined;
    return r ? toAccount(r) : null;
  }

  async listAccounts(): Promise<Account[]> {
    return (this.h.s('SELECT * FROM accounts ORDER BY created_at').all() as Row[]).map(toAccount);
  }

  async countAccounts(): Promise<number> {
    return (this.h.s('SELECT COUNT(*) AS n FROM accounts').get() as Row).n;
  }

  async updateAccount(id: string, patch: Partial<Omit<Account, 'id' | 'createdAt' | 'balanceMicros'>>): Promise<void> {
    for (const [k, v] of Object.entries(patch)) {
      const col = ACCOUNT_COLUMNS[k];
      if (!col || v === undefined) continue;
      this.h.db.prepare(`UPDATE accounts SET ${col} = ? WHERE id = ?`).run(typeof v === 'boolean' ? (v ? 1 : 0) : v, id);
    }
  }

  async addBalance(id: string, amountMicros: number): Promise<number> {
    const r = this.h.s('UPDATE accounts SET balance_micros = balance_micros + ? WHERE id = ? RETURNING balance_micros').get(amountMicros, id) as Row | undefined;
    if (!r) throw new Error(`no account ${id}`);
    return r.balance_micros;
  }

  async addApiKey(accountId: string, keyHash: string, prefix: string, now: number): Promise<ApiKeyRow> {
    const id = randomUUID();
    this.h.s('INSERT INTO api_keys (id, account_id, key_hash, prefix, created_at) VALUES (?, ?, ?, ?, ?)').run(id, accountId, keyHash, prefix, now);
    return { id, accountId, prefix, createdAt: now, revokedAt: null };
  }

  async findKey(keyHash: string) {
    const r = this.h.s(`SELECT k.id AS key_id, k.key_hash, a.* FROM api_keys k JOIN accounts a ON a.id = k.account_id
                        WHERE k.key_hash = ? AND k.revoked_at IS NULL`).get(keyHash) as Row | undefined;
    return r ? { account: toAccount(r), keyHash: r.key_hash as string, keyId: r.key_id as string } : null;
  }

  async listApiKeys(accountId: string): Promise<ApiKeyRow[]> {
    return (this.h.s('SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at').all(accountId) as Row[]).map(toApiKey);
  }

  async revokeApiKey(keyId: string, now: number): Promise<boolean> {
    return this.h.s('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(now, keyId).changes > 0;
  }
}
