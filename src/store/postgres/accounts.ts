/**
 * Accounts and API keys on PostgreSQL (../accounts/contract.ts). Every write waits for the WAL flush
 * (`durable`): money and keys are never among the commits a server crash may lose.
 *
 * @example const a = await new PostgresAccounts(h).getAccount('a1');
 */
import { randomUUID } from 'node:crypto';
import type { Account, AccountStore, ApiKeyRow } from '../accounts/contract.ts';
import { ACCOUNT_COLUMNS, toAccount, toApiKey } from '../rows.ts';
import type { PgDb } from './handle.ts';

export class PostgresAccounts implements AccountStore {
  constructor(private readonly h: PgDb) {}

  async createAccount(a: Omit<Account, 'createdAt'> & { createdAt?: number }): Promise<Account> {
    const createdAt = a.createdAt ?? Date.now();
    await this.h.durable(`INSERT INTO accounts (id, name, balance_micros, credit_limit_micros, currency, past_due, webhook_secret, webhook_url, rate_per_sec, burst, created_at)
                          VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [a.id, a.name, a.balanceMicros, a.creditLimitMicros, a.currency, a.pastDue, a.webhookSecret, a.webhookUrl, a.ratePerSec, a.burst, createdAt]);
    return { ...a, createdAt };
  }

  async getAccount(id: string): Promise<Account | null> {
    const [r] = await this.h.q('SELECT * FROM accounts WHERE id = $1', [id]);
    return r ? toAccount(r) : null;
  }

  async listAccounts(): Promise<Account[]> {
    return (await this.h.q('SELECT * FROM accounts ORDER BY created_at')).map(toAccount);
  }

  async countAccounts(): Promise<number> {
    return (await this.h.q('SELECT COUNT(*) AS n FROM accounts'))[0].n;
  }

  async updateAccount(id: string, patch: Partial<Omit<Account, 'id' | 'createdAt' | 'balanceMicros'>>): Promise<void> {
    const sets: string[] = [];
    const args: unknown[] = [id];
    for (const [k, v] of Object.entries(patch)) {
      const col = ACCOUNT_COLUMNS[k];
      if (!col || v === undefined) continue;
      args.push(v);
      sets.push(`${col} = $${args.length}`);
    }
    if (sets.length) await this.h.durable(`UPDATE accounts SET ${sets.join(', ')} WHERE id = $1`, args);
  }

  async addBalance(id: string, amountMicros: number): Promise<number> {
    const [r] = (await this.h.durable('UPDATE accounts SET balance_micros = balance_micros + $1 WHERE id = $2 RETURNING balance_micros', [amountMicros, id])).rows;
    if (!r) throw new Error(`no account ${id}`);
    return r.balance_micros;
  }

  async addApiKey(accountId: string, keyHash: string, prefix: string, now: number): Promise<ApiKeyRow> {
    const id = randomUUID();
    await this.h.durable('INSERT INTO api_keys (id, account_id, key_hash, prefix, created_at) VALUES ($1, $2, $3, $4, $5)', [id, accountId, keyHash, prefix, now]);
    return { id, accountId, prefix, createdAt: now, revokedAt: null };
  }

  async findKey(keyHash: string) {
    const [r] = await this.h.q(`SELECT k.id AS key_id, k.key_hash, a.* FROM api_keys k JOIN accounts a ON a.id = k.account_id
                                WHERE k.key_hash = $1 AND k.revoked_at IS NULL`, [keyHash]);
    return r ? { account: toAccount(r), keyHash: r.key_hash as string, keyId: r.key_id as string } : null;
  }

  async listApiKeys(accountId: string): Promise<ApiKeyRow[]> {
    return (await this.h.q('SELECT * FROM api_keys WHERE account_id = $1 ORDER BY created_at', [accountId])).map(toApiKey);
  }

  async revokeApiKey(keyId: string, now: number): Promise<boolean> {
    return (await this.h.durable('UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [now, keyId])).count > 0;
  }
}
