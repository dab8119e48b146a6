/**
 * Billing on PostgreSQL (../billing/contract.ts): prices, the usage ledger, direct charges, the daily
 * roll-up; and `billUsage`, a usage line with its charge inside another part's transaction (the
 * dropDuplicates surcharge at a request's end, ./items.ts). A work item's own bill is part of the
 * completion statement (./complete-item.ts).
 *
 * @example await new PostgresBilling(h).usageForPeriod('a1', start, end)
 */
import type { BillingStore, DirectCharge, UsageLine } from '../billing/contract.ts';
import { canChargeSql } from '../../billing/credit.ts';
import { toUsageLine, type Row } from '../rows.ts';
import type { Client, PgDb } from './handle.ts';

/**
 * Writes the usage line unless this key was billed already, and charges the account, on the caller's
 * transaction `c`. `r` holds the request's account, product, unit and price. Returns the quantity
 * billed now (0 for a repeat).
 */
export async function billUsage(h: PgDb, c: Client, r: Row, requestId: string, key: string, quantity: number, now: number): Promise<number> {
  if (quantity <= 0) return 0;
  const [x] = await h.q(`WITH u AS (
                           INSERT INTO usage (account_id, request_id, item_key, product, unit, quantity, unit_price_micros, amount_micros, created_at)
                           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (item_key) DO NOTHING RETURNING amount_micros),
                         a AS (UPDATE accounts SET balance_micros = balance_micros - u.amount_micros FROM u WHERE accounts.id = $1 RETURNING 1)
                         SELECT COUNT(*) AS n FROM u`,
  [r.account_id, requestId, key, r.product, r.unit, quantity, r.unit_price_micros, quantity * r.unit_price_micros, now], c);
  return x.n > 0 ? quantity : 0;
}

export class PostgresBilling implements BillingStore {
  constructor(private readonly h: PgDb) {}

  async setPrice(product: string, unitPriceMicros: number, accountId?: string | null): Promise<void> {
    await this.h.durable(`INSERT INTO prices (account_id, product, unit_price_micros) VALUES ($1, $2, $3)
                          ON CONFLICT (account_id, product) DO UPDATE SET unit_price_micros = excluded.unit_price_micros`, [accountId ?? '', product, unitPriceMicros]);
  }

  async getPrice(product: string, accountId: string): Promise<number | null> {
    const [r] = await this.h.q(`SELECT unit_price_micros FROM prices WHERE product = $1 AND account_id IN ($2, '') ORDER BY account_id DESC LIMIT 1`, [product, accountId]);
    return r ? r.unit_price_micros : null;
  }

  async usageForPeriod(accountId: string, start: number, end: number): Promise<UsageLine[]> {
    return (await this.h.q(`SELECT product, unit, unit_price_micros, SUM(quantity) AS quantity, SUM(amount_micros) AS amount_micros FROM usage
                            WHERE account_id = $1 AND created_at >= $2 AND created_at < $3 GROUP BY product, unit, unit_price_micros ORDER BY product`,
    [accountId, start, end])).map(toUsageLine);
  }

  async chargeUsage(c: DirectCharge): Promise<boolean> {
    if (c.quantity <= 0) return true;
    // The account row is locked while it is checked, so two answers cannot both pass on the last cent.
    const { rows } = await this.h.durable(`WITH ok AS (SELECT id FROM accounts a WHERE a.id = $1 AND ${canChargeSql('a')} FOR UPDATE),
        u AS (INSERT INTO usage (account_id, request_id, item_key, product, unit, quantity, unit_price_micros, amount_micros, created_at)
              SELECT $1, $2, $2, $3, $4, $5::bigint, $6::bigint, $5::bigint * $6::bigint, $7 FROM ok ON CONFLICT (item_key) DO NOTHING RETURNING amount_micros),
        a AS (UPDATE accounts SET balance_micros = balance_micros - u.amount_micros FROM u WHERE accounts.id = $1)
      SELECT COUNT(*) AS n FROM ok`, [c.accountId, c.key, c.product, c.unit, c.quantity, c.unitPriceMicros, c.now]);
    return Number(rows[0].n) > 0;
  }

  async rollupUsage(before: number, limit?: number): Promise<number> {
    // One statement: the lines are deleted and their sums added in the same snapshot; SKIP LOCKED and
    // DELETE ... RETURNING (only the rows this statement removed) keep two janitors from counting a line twice.
    const [r] = await this.h.q(`WITH pick AS (SELECT id FROM usage WHERE item_key NOT LIKE 'day:%' AND created_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED),
      gone AS (DELETE FROM usage u USING pick WHERE u.id = pick.id RETURNING u.account_id, u.product, u.unit, u.unit_price_micros, u.quantity, u.amount_micros,
                 (u.created_at / 86400000) * 86400000 AS day),
      sums AS (SELECT account_id, product, unit, unit_price_micros, day, SUM(quantity)::bigint AS quantity, SUM(amount_micros)::bigint AS amount_micros,
                 'day:' || to_char(to_timestamp(day / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD') || '|' || account_id || '|' || product || '|' || unit || '|' || unit_price_micros AS k
               FROM gone GROUP BY account_id, product, unit, unit_price_micros, day),
      ins AS (INSERT INTO usage (account_id, request_id, item_key, product, unit, quantity, unit_price_micros, amount_micros, created_at)
              SELECT account_id, k, k, product, unit, quantity, unit_price_micros, amount_micros, day FROM sums
              ON CONFLICT (item_key) DO UPDATE SET quantity = usage.quantity + excluded.quantity, amount_micros = usage.amount_micros + excluded.amount_micros)
      SELECT count(*)::int AS n FROM gone`, [before, limit ?? null]);
    return r.n as number;
  }
}
