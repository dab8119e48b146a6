/**
 * Billing on SQLite (../billing/contract.ts): prices, the usage ledger, direct charges, the daily
 * roll-up; and `billUsage`, the one write of a usage line with its charge, which completions run
 * inside their own transaction (./items.ts).
 *
 * @example await new SqliteBilling(h).chargeUsage({ accountId: 'a1', key: 'page:1', product: 'businesses', unit: 'business', quantity: 3, unitPriceMicros: 250_000, now })
 */
import type { BillingStore, DirectCharge, UsageLine } from '../billing/contract.ts';
import type { ExtraProduct } from '../requests/contract.ts';
import { canChargeSql } from '../../billing/credit.ts';
import type { Account } from '../accounts/contract.ts';
import { toAccount, toUsageLine, type Row } from '../rows.ts';
import type { SqliteDb } from './handle.ts';

/** The credit rule (src/billing/credit.ts): whether the account may be charged. Inside a transaction
 *  nothing else runs, so the answer holds for the charge that follows. */
export function canPay(h: SqliteDb, accountId: string): boolean {
  return !!h.s(`SELECT 1 FROM accounts a WHERE a.id = ? AND ${canChargeSql('a')}`).get(accountId);
}

/** The account as the credit rule reads it, inside the caller's transaction. */
export function chargeable(h: SqliteDb, accountId: string): Account {
  return toAccount(h.s('SELECT * FROM accounts WHERE id = ?').get(accountId) as Row);
}

/**
 * Writes one usage line of a request unless its key was billed already, and charges the account;
 * inside the caller's transaction. `r` holds the request's account, product, unit and price; `other` a
 * per-place product billed instead (an enrichment), which the request's `usage` does not count.
 * Returns the quantity billed now (0 for a repeat). `countOnRequest` false: the caller adds it to the
 * request's usage in its own update of the row (a completion's counters: one statement fewer).
 */
export function billUsage(h: SqliteDb, r: Row, requestId: string, key: string, quantity: number, now: number, other?: ExtraProduct,
  countOnRequest = true): number {
  if (quantity <= 0) return 0;
  const [product, unit, price] = other ? [other.product, other.unit, other.unitPriceMicros] : [r.product, r.unit, r.unit_price_micros];
  const amount = quantity * price;
  const ins = h.s(`INSERT OR IGNORE INTO usage (account_id, request_id, item_key, product, unit, quantity, unit_price_micros, amount_micros, created_at)
                   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(r.account_id, requestId, key, product, unit, quantity, price, amount, now);
  if (ins.changes === 0) return 0;
  h.s('UPDATE accounts SET balance_micros = balance_micros - ? WHERE id = ?').run(amount, r.account_id);
  // The request's usage counts its own product only.
  if (!other && countOnRequest) h.s('UPDATE requests SET usage = usage + ? WHERE id = ?').run(quantity, requestId);
  return quantity;
}

export class SqliteBilling implements BillingStore {
  constructor(private readonly h: SqliteDb) {}

  async setPrice(product: string, unitPriceMicros: number, accountId?: string | null): Promise<void> {
    this.h.s(`INSERT INTO prices (account_id, product, unit_price_micros) VALUES (?, ?, ?)
              ON CONFLICT (account_id, product) DO UPDATE SET unit_price_micros = excluded.unit_price_micros`)
      .run(accountId ?? '', product, unitPriceMicros);
  }

  async getPrice(product: string, accountId: string): Promise<number | null> {
    const r = this.h.s(`SELECT unit_price_micros FROM prices WHERE product = ? AND account_id IN (?, '') ORDER BY account_id DESC LIMIT 1`).get(product, accountId) as Row | undefined;
    return r ? r.unit_price_micros : null;
  }

  async usageForPeriod(accountId: string, start: number, end: number): Promise<UsageLine[]> {
    return (this.h.s(`SELECT product, unit, unit_price_micros, SUM(quantity) AS quantity, SUM(amount_micros) AS amount_micros FROM usage
                      WHERE account_id = ? AND created_at >= ? AND created_at < ? GROUP BY product, unit, unit_price_micros ORDER BY product`)
      .all(accountId, start, end) as Row[]).map(toUsageLine);
  }

  async chargeUsage(c: DirectCharge): Promise<boolean> {
    if (c.quantity <= 0) return true;
    return this.h.grouped(() => {
      if (!canPay(this.h, c.accountId)) return false;
      const amount = c.quantity * c.unitPriceMicros;
      const line = this.h.s(`INSERT INTO usage (account_id, request_id, item_key, product, unit, quantity, unit_price_micros, amount_micros, created_at)
                             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (item_key) DO NOTHING`)
        .run(c.accountId, c.key, c.key, c.product, c.unit, c.quantity, c.unitPriceMicros, amount, c.now);
      if (line.changes) this.h.s('UPDATE accounts SET balance_micros = balance_micros - ? WHERE id = ?').run(amount, c.accountId);
      return true;
    });
  }

  async rollupUsage(before: number, limit = -1): Promise<number> {
    return this.h.tx(() => {
      const ids = JSON.stringify((this.h.s("SELECT id FROM usage WHERE item_key NOT LIKE 'day:%' AND created_at < ? LIMIT ?").all(before, limit) as Row[]).map((r) => r.id));
      // Adds to the day's line when an earlier batch made it already (a day can span batches).
      this.h.s(`INSERT INTO usage (account_id, request_id, item_key, product, unit, quantity, unit_price_micros, amount_micros, created_at)
                SELECT account_id, k, k, product, unit, quantity, unit_price_micros, amount_micros, day FROM (
                  SELECT account_id, product, unit, unit_price_micros, SUM(quantity) AS quantity, SUM(amount_micros) AS amount_micros,
                         (created_at / 86400000) * 86400000 AS day,
                         'day:' || strftime('%Y-%m-%d', (created_at / 86400000) * 86400, 'unixepoch') || '|' || account_id || '|' || product || '|' || unit || '|' || unit_price_micros AS k
                  FROM usage WHERE id IN (SELECT value FROM json_each(?)) GROUP BY k)
                WHERE true
                ON CONFLICT (item_key) DO UPDATE SET quantity = quantity + excluded.quantity, amount_micros = amount_micros + excluded.amount_micros`).run(ids);
      return this.h.s('DELETE FROM usage WHERE id IN (SELECT value FROM json_each(?))').run(ids).changes;
    });
  }
}
