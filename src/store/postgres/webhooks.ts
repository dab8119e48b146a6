/**
 * Webhook deliveries, subscriptions and the call log on PostgreSQL (../webhooks/contract.ts);
 * `enqueueDelivery` and `deliveryOfEndedSql` create the deliveries of a request that just ended,
 * inside the transaction or the statement that ended it (./items.ts, ./complete-item.ts,
 * ./requests.ts), `enqueueTaskFileReady` those of a task whose file was just written (./tasks.ts).
 *
 * @example const due = await new PostgresWebhooks(h).claimDueWebhooks(Date.now(), 10, 30_000);
 */
import type { WebhookCall, WebhookDelivery, WebhookStore, WebhookSubscription } from '../webhooks/contract.ts';
import { MONITOR_RUN } from '../monitors/contract.ts';
import { toWebhookCall, toWebhookSubscription, type Row } from '../rows.ts';
import type { Client, PgDb } from './handle.ts';

/** The events an ended request `req` (a row or CTE) makes, as a text[] expression. */
const endedEvents = (req: string) => `CASE WHEN ${req}.params::jsonb ? '${MONITOR_RUN}' THEN ARRAY['request.finished', 'monitor.changes'] ELSE ARRAY['request.finished'] END`;

/** Rows (id, account_id, request_id, url, event, subscription_id) of one delivery per subscription of
 *  account `account` naming an event of `events` (text[]), for request `request`. */
const subscribedSql = (request: string, account: string, events: string) => `
    SELECT ${request} || '|' || s.id || '|' || e.ev, s.account_id, ${request}, s.url, e.ev, s.id
    FROM webhook_subscriptions s JOIN unnest(${events}) AS e(ev) ON strpos(s.events, ',' || e.ev || ',') > 0
    WHERE s.account_id = ${account}`;

/** The deliveries of an ended request `r` (a requests row), on the caller's transaction `c`: to its
 *  webhook, else the account's integration webhook; and one per subscription to its events. */
export async function enqueueDelivery(h: PgDb, c: Client, r: Row, now: number): Promise<void> {
  await h.q(`WITH own AS (
               INSERT INTO webhook_deliveries (id, account_id, request_id, url, next_at)
               SELECT $1, $2, $1, u.url, $4 FROM (SELECT COALESCE($3::text, (SELECT webhook_url FROM accounts WHERE id = $2)) AS url) u
               WHERE u.url IS NOT NULL ON CONFLICT (id) DO NOTHING)
             INSERT INTO webhook_deliveries (id, account_id, request_id, url, event, subscription_id, next_at)
             SELECT x.*, $4 FROM (${subscribedSql('$1::text', '$2::text', `CASE WHEN $5::boolean THEN ARRAY['request.finished', 'monitor.changes'] ELSE ARRAY['request.finished'] END`)}) x
             ON CONFLICT (id) DO NOTHING`, [r.id, r.account_id, r.webhook, now, !!(r.params && typeof r.params === 'object' && MONITOR_RUN in r.params)], c);
}

/** The same as a statement's last steps: the deliveries of the request CTE `req` ended, when `alone` is
 *  true; a row for each one made (the statement says whether there were any: FanIn.deliveries). */
export const deliveryOfEndedSql = (now: string, alone: string) => `
    INSERT INTO webhook_deliveries (id, account_id, request_id, url, next_at, event, subscription_id)
    SELECT req.id, req.account_id, req.id, COALESCE(req.webhook, a.webhook_url), ${now}, NULL, NULL FROM req JOIN accounts a ON a.id = req.account_id
    WHERE ${alone} AND req.status <> 'Pending' AND COALESCE(req.webhook, a.webhook_url) IS NOT NULL
    UNION ALL
    SELECT x.id, x.account_id, x.request_id, x.url, ${now}, x.event, x.subscription_id FROM req CROSS JOIN LATERAL (${subscribedSql('req.id', 'req.account_id', endedEvents('req'))}) AS x(id, account_id, request_id, url, event, subscription_id)
    WHERE ${alone} AND req.status <> 'Pending'
    ON CONFLICT (id) DO NOTHING RETURNING 1`;

/** The `task.file_ready` deliveries of a task whose file was just written (keyed by its request). */
export async function enqueueTaskFileReady(h: PgDb, c: Client | undefined, accountId: string, requestId: string, now: number): Promise<void> {
  await h.q(`INSERT INTO webhook_deliveries (id, account_id, request_id, url, event, subscription_id, next_at)
             SELECT x.*, $3 FROM (${subscribedSql('$1::text', '$2::text', "ARRAY['task.file_ready']")}) x ON CONFLICT (id) DO NOTHING`, [requestId, accountId, now], c);
}

/** The janitor's share of a purge: the ended deliveries of deleted requests (one still retrying
 *  stays), and up to `limit` failed calls older than `before`. Returns the calls deleted. */
export async function purgeWebhooks(h: PgDb, c: Client, requestIds: string[], before: number, limit: number | null): Promise<number> {
  if (requestIds.length) await h.q("DELETE FROM webhook_deliveries WHERE request_id = ANY($1::text[]) AND state <> 'pending'", [requestIds], c);
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
                                 RETURNING d.id, d.account_id, d.request_id, d.url, d.attempts, d.next_at, d.event, d.subscription_id`, [now, max, now + leaseMs]);
    return rows.sort((a, b) => a.next_at - b.next_at)
      .map((r) => ({ id: r.id, accountId: r.account_id, requestId: r.request_id, url: r.url, attempts: r.attempts, event: r.event ?? null, subscriptionId: r.subscription_id ?? null }));
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

  async createWebhookSubscription(s: WebhookSubscription, max: number): Promise<boolean> {
    // The account's row lock orders two creates of one account, so the cap holds under concurrency.
    return this.h.tx(async (c) => {
      await this.h.q('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [s.accountId], c);
      const [n] = await this.h.q('SELECT COUNT(*)::int AS n FROM webhook_subscriptions WHERE account_id = $1', [s.accountId], c);
      if (n.n >= max) return false;
      await this.h.q('INSERT INTO webhook_subscriptions (id, account_id, url, events, description, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
        [s.id, s.accountId, s.url, `,${s.events.join(',')},`, s.description, s.created], c);
      return true;
    });
  }

  async listWebhookSubscriptions(accountId: string): Promise<WebhookSubscription[]> {
    return (await this.h.q('SELECT * FROM webhook_subscriptions WHERE account_id = $1 ORDER BY created_at DESC, id DESC', [accountId])).map(toWebhookSubscription);
  }

  async deleteWebhookSubscription(accountId: string, id: string): Promise<boolean> {
    return (await this.h.n('DELETE FROM webhook_subscriptions WHERE id = $1 AND account_id = $2', [id, accountId])) > 0;
  }
}
