/**
 * Webhook deliveries and the call log on SQLite (../webhooks/contract.ts); `enqueueDelivery` creates
 * the delivery of a request that just ended, inside the transaction that ended it (./items.ts,
 * ./requests.ts), and `purgeWebhooks` is the janitor's share of a purge.
 *
 * @example const due = await new SqliteWebhooks(h).claimDueWebhooks(Date.now(), 10, 30_000);
 */
import type { WebhookCall, WebhookDelivery, WebhookStore } from '../webhooks/contract.ts';
import { toWebhookCall, type Row } from '../rows.ts';
import type { SqliteDb } from './handle.ts';

/** The delivery of an ended request `r` (a requests row): to its webhook, else the account's integration webhook. */
export function enqueueDelivery(h: SqliteDb, r: Row, now: number): void {
  const url = r.webhook ?? (h.s('SELECT webhook_url FROM accounts WHERE id = ?').get(r.account_id) as Row | undefined)?.webhook_url;
  if (url) h.s('INSERT OR IGNORE INTO webhook_deliveries (id, account_id, request_id, url, next_at) VALUES (?, ?, ?, ?, ?)').run(r.id, r.account_id, r.id, url, now);
}

/** Drops the ended delivery of a deleted request (keyed by its id; one still retrying stays: issue 15). */
export function dropDelivery(h: SqliteDb, requestId: string): void {
  h.s("DELETE FROM webhook_deliveries WHERE id = ? AND state <> 'pending'").run(requestId);
}

/** Deletes up to `limit` failed calls older than `before` (GET /webhook-calls shows the history period only). */
export function purgeCalls(h: SqliteDb, before: number, limit: number): number {
  return h.s('DELETE FROM webhook_calls WHERE id IN (SELECT id FROM webhook_calls WHERE created_at < ? LIMIT ?)').run(before, limit).changes;
}

export class SqliteWebhooks implements WebhookStore {
  constructor(private readonly h: SqliteDb) {}

  async claimDueWebhooks(now: number, max: number, leaseMs: number): Promise<WebhookDelivery[]> {
    return this.h.tx(() => {
      const rows = this.h.s(`SELECT * FROM webhook_deliveries WHERE state = 'pending' AND next_at <= ? AND (lease_until IS NULL OR lease_until < ?)
                             ORDER BY next_at LIMIT ?`).all(now, now, max) as Row[];
      const lease = this.h.s('UPDATE webhook_deliveries SET lease_until = ? WHERE id = ?');
      return rows.map((r) => {
        lease.run(now + leaseMs, r.id);
        return { id: r.id, accountId: r.account_id, requestId: r.request_id, url: r.url, attempts: r.attempts };
      });
    });
  }

  async recordWebhookAttempt(id: string, statusCode: number, ok: boolean, nextAt: number | null, now: number): Promise<void> {
    this.h.tx(() => {
      const d = this.h.s('SELECT account_id FROM webhook_deliveries WHERE id = ?').get(id) as Row | undefined;
      if (!d) return;
      const state = ok ? 'delivered' : nextAt === null ? 'failed' : 'pending';
      this.h.s('UPDATE webhook_deliveries SET attempts = attempts + 1, state = ?, next_at = ?, lease_until = NULL WHERE id = ?').run(state, nextAt, id);
      if (!ok) this.h.s('INSERT INTO webhook_calls (account_id, delivery_id, status_code, created_at) VALUES (?, ?, ?, ?)').run(d.account_id, id, statusCode, now);
    });
  }

  async listWebhookCalls(accountId: string, since: number, limit: number): Promise<WebhookCall[]> {
    return (this.h.s('SELECT status_code, created_at FROM webhook_calls WHERE account_id = ? AND created_at >= ? ORDER BY created_at DESC, id DESC LIMIT ?')
      .all(accountId, since, limit) as Row[]).map(toWebhookCall);
  }
}
