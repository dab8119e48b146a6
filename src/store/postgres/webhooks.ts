/**
 * Webhook deliveries and the call log on PostgreSQL (../webhooks/contract.ts); `enqueueDelivery` and
 * `deliveryOfEndedSql` create the delivery of a request that just ended, inside the transaction or
 * the statement that ended it (./items.ts, ./complete-item.ts, ./requests.ts).
 *
 * @example const due = await new PostgresWebhooks(h).claimDueWebhooks(Date.now(), 10, 30_000);
 */
import type { WebhookCall, WebhookDelivery, WebhookStore } from '../webhooks/contract.ts';
import { toWebhookCall, type Row } from '../rows.ts';
import type { Client, PgDb } from './handle.ts';

/** The delivery of an ended request `r` (a requests row), on the caller's transaction `c`: to its
 *  webhook, else the account's integration webhook. */
export async function enqueueDelivery(h: PgDb, c: Client, r: Row, now: number): Promise<void> {
  await h.q(`INSERT INTO webhook_deliveries (id, account_id, request_id, url, next_at)
             SELECT $1, $2, $1, u.url, $4 FROM (SELECT COALESCE($3::text, (SELECT webhook_url FROM accounts WHERE id = $2)) AS url) u
             WHERE u.url IS NOT NULL ON CONFLICT (id) DO NOTHING`, [r.id, r.account_id, r.webhook, now], c);
}

/** The same as a statement's last step: the delivery of the request CTE `req` ended, when `alone` is true. */
export const deliveryOfEndedSql = (now: string, alone: string) => `
    INSERT INTO webhook_deliveries (id, account_id, request_id, url, next_at)
    SELECT req.id, req.account_id, req.id, COALESCE(req.webhook, a.webhook_url), ${now} FROM req JOIN accounts a ON a.id = req.account_id
    WHERE ${alone} AND req.status <> 'Pending' AND COALESCE(req.webhook, a.webhook_url) IS NOT NULL
    ON CONFLICT (id) DO NOTHING`;

/** The janitor's share of a purge: the ended deliveries of deleted requests (one still retrying
 *  stays), and up to `limit` failed calls older than `before`. Returns the calls deleted. */
export async function purgeWebhooks(h: PgDb, c: Client, requestIds: string[], before: number, limit: number | null): Promise<number> {
  if (requestIds.length) await h.q("DELETE FROM webhook_deliveries WHERE id = ANY($1::text[]) AND state <> 'pending'", [requestIds], c);
  const [calls] = await h.q(`WITH d AS (DELETE FROM webhook_calls WHERE id IN (SELECT id FROM webhook_calls WHERE created_at < $1 LIMIT $2) RETURNING 1)
                             SELECT count(*)::int AS n FROM d`, [before, limit], c);
  return calls.n as number;
}

export class PostgresWebhooks implements WebhookStore {
  constructor(private readonly h: PgDb) {}

  async claimDueWebhooks(now: number, max: number, leaseMs: number): Promise<WebhookDelivery[]> {
    const rows = await this.h.q(`WITH pick AS (
                                   SELECT id FROM webhook_deliveries WHERE state = 'pending' AND next_at <= $1 AND (lease_until IS NULL OR lease_until < $1)
                                   ORDER BY next_at LIMIT $2 FOR UPDATE SKIP LOCKED)
                                 UPDATE webhook_deliveries d SET lease_until = $3 FROM pick WHERE d.id = pick.id
                                 RETURNING d.id, d.account_id, d.request_id, d.url, d.attempts, d.next_at`, [now, max, now + leaseMs]);
    return rows.sort((a, b) => a.next_at - b.next_at)
      .map((r) => ({ id: r.id, accountId: r.account_id, requestId: r.request_id, url: r.url, attempts: r.attempts }));
  }

  async recordWebhookAttempt(id: string, statusCode: number, ok: boolean, nextAt: number | null, now: number): Promise<void> {
    const state = ok ? 'delivered' : nextAt === null ? 'failed' : 'pending';
    await this.h.q(`WITH d AS (UPDATE webhook_deliveries SET attempts = attempts + 1, state = $2, next_at = $3, lease_until = NULL
                               WHERE id = $1 RETURNING account_id)
                    INSERT INTO webhook_calls (account_id, delivery_id, status_code, created_at)
                    SELECT account_id, $1, $4, $5 FROM d WHERE NOT $6::boolean`, [id, state, nextAt, statusCode, now, ok]);
  }

  async listWebhookCalls(accountId: string, since: number, limit: number): Promise<WebhookCall[]> {
    return (await this.h.q(`SELECT status_code, created_at FROM webhook_calls WHERE account_id = $1 AND created_at >= $2
                            ORDER BY created_at DESC, id DESC LIMIT $3`, [accountId, since, limit])).map(toWebhookCall);
  }
}
