/**
 * Webhook deliveries, subscriptions and the call log on SQLite (../webhooks/contract.ts);
 * `enqueueDelivery` creates the deliveries of a request that just ended, inside the transaction that
 * ended it (./items.ts, ./requests.ts), `enqueueTaskFileReady` those of a task whose file was just
 * written (./tasks.ts), and `dropDelivery` / `purgeCalls` are the janitor's share of a purge.
 *
 * @example const due = await new SqliteWebhooks(h).claimDueWebhooks(Date.now(), 10, 30_000);
 */
import type { WebhookCall, WebhookDelivery, WebhookStore, WebhookSubscription } from '../webhooks/contract.ts';
import type { WebhookEvent } from '../../contract/webhooks.ts';
import { MONITOR_RUN } from '../monitors/contract.ts';
import { toWebhookCall, toWebhookSubscription, type Row } from '../rows.ts';
import type { SqliteDb } from './handle.ts';

const INTO = 'INSERT OR IGNORE INTO webhook_deliveries (id, account_id, request_id, url, next_at, event, subscription_id)';
/** One delivery per subscription of account @account naming an event of the list @events (JSON array), for request @request. */
const PER_SUBSCRIPTION = `SELECT @request || '|' || s.id || '|' || e.value, s.account_id, @request, s.url, @now, e.value, s.id
  FROM webhook_subscriptions s JOIN json_each(@events) e ON instr(s.events, ',' || e.value || ',') > 0
  WHERE s.account_id = @account`;
const SUBSCRIBED = `${INTO} ${PER_SUBSCRIPTION}`;
/** An ended request's deliveries in one statement (two were one more a request, issue 37): to the
 *  request's URL @webhook, else the account's (read in the insert), and one per subscription. */
const ENDED_DELIVERIES = `${INTO}
  SELECT @request, @account, @request, u, @now, NULL, NULL FROM (SELECT coalesce(@webhook, (SELECT webhook_url FROM accounts WHERE id = @account)) AS u)
  WHERE u IS NOT NULL AND u <> ''
  UNION ALL ${PER_SUBSCRIPTION}`;

const ENDED = JSON.stringify(['request.finished'] satisfies WebhookEvent[]);
const RUN_ENDED = JSON.stringify(['request.finished', 'monitor.changes'] satisfies WebhookEvent[]);
const FILE_READY = JSON.stringify(['task.file_ready'] satisfies WebhookEvent[]);

/** The deliveries of an ended request `r` (a requests row): to its webhook, else the account's
 *  integration webhook; and one per subscription to its events. Whether it made any (FanIn.deliveries). */
export function enqueueDelivery(h: SqliteDb, r: Row, now: number): boolean {
  const run = typeof r.params === 'string' && r.params.includes(`"${MONITOR_RUN}"`);
  return h.s(ENDED_DELIVERIES).run({ request: r.id, account: r.account_id, webhook: r.webhook ?? null, now, events: run ? RUN_ENDED : ENDED }).changes > 0;
}

/** The `task.file_ready` deliveries of a task whose file was just written (keyed by its request). */
export function enqueueTaskFileReady(h: SqliteDb, accountId: string, requestId: string, now: number): void {
  h.s(SUBSCRIBED).run({ request: requestId, account: accountId, now, events: FILE_READY });
}

/** Drops the ended deliveries of a deleted request (one still retrying stays: issue 15). */
export function dropDelivery(h: SqliteDb, requestId: string): void {
  h.s("DELETE FROM webhook_deliveries WHERE request_id = ? AND state <> 'pending'").run(requestId);
}

/** Deletes up to `limit` failed calls older than `before` (GET /webhook-calls shows the history period only). */
export function purgeCalls(h: SqliteDb, before: number, limit: number): number {
  return h.s('DELETE FROM webhook_calls WHERE id IN (SELECT id FROM webhook_calls WHERE created_at < ? LIMIT ?)').run(before, limit).changes;
}

const DUE = `SELECT * FROM webhook_deliveries WHERE state = 'pending' AND next_at <= ? AND (lease_until IS NULL OR lease_until < ?)
             ORDER BY next_at LIMIT ?`;

export class SqliteWebhooks implements WebhookStore {
  constructor(private readonly h: SqliteDb) {}

  async claimDueWebhooks(now: number, max: number, leaseMs: number): Promise<WebhookDelivery[]> {
    const due = this.h.s(DUE);
    // Most rounds find nothing (one follows every burst of request ends, src/app/webhook-dispatcher.ts):
    // that answer needs no transaction of its own (issue 37). Found ones are read again inside it.
    if (!due.get(now, now, 1)) return [];
    return this.h.tx(() => {
      const rows = due.all(now, now, max) as Row[];
      const lease = this.h.s('UPDATE webhook_deliveries SET lease_until = ? WHERE id = ?');
      return rows.map((r) => {
        lease.run(now + leaseMs, r.id);
        return { id: r.id, accountId: r.account_id, requestId: r.request_id, url: r.url, attempts: r.attempts, event: r.event ?? null, subscriptionId: r.subscription_id ?? null };
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

  async createWebhookSubscription(s: WebhookSubscription, max: number): Promise<boolean> {
    return this.h.tx(() => {
      const n = (this.h.s('SELECT COUNT(*) AS n FROM webhook_subscriptions WHERE account_id = ?').get(s.accountId) as Row).n as number;
      if (n >= max) return false;
      this.h.s('INSERT INTO webhook_subscriptions (id, account_id, url, events, description, created_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(s.id, s.accountId, s.url, `,${s.events.join(',')},`, s.description, s.created);
      return true;
    });
  }

  async listWebhookSubscriptions(accountId: string): Promise<WebhookSubscription[]> {
    return (this.h.s('SELECT * FROM webhook_subscriptions WHERE account_id = ? ORDER BY created_at DESC, id DESC').all(accountId) as Row[]).map(toWebhookSubscription);
  }

  async deleteWebhookSubscription(accountId: string, id: string): Promise<boolean> {
    return this.h.s('DELETE FROM webhook_subscriptions WHERE id = ? AND account_id = ?').run(id, accountId).changes > 0;
  }
}
