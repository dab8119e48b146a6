/**
 * Webhook delivery (decision 15). Deliveries are rows the store creates in the transaction that ends
 * a request; this dispatcher sends them: a POST with the JSON body, signed with the account's
 * secret in `X-Hub-Signature-256`, 10 s to answer 2xx, then retries after about 1 min, 5 min,
 * 30 min, 2 h and 6 h. Every failed attempt is logged for `GET /webhook-calls`; a connection error
 * or timeout reads `Status code: 0`. Targets pass the SSRF guard on every attempt. A subscription's
 * delivery (POST /webhooks) is sent the same way, its body by its event (./event-body.ts) and its
 * event named in `X-Webhook-Event`.
 *
 * @example
 *   const d = new WebhookDispatcher(ctx); d.start(); ... await d.stop();
 *   signBody('{"id":"..."}', 'whsec_...') // 'sha256=9f2c...'
 */
import { createHmac } from 'node:crypto';
import { request, type Dispatcher } from 'undici';
import type { AppContext } from './context.ts';
import type { RequestRow, WebhookDelivery } from '../store/contract.ts';
import { failedQueries, resultsLocation } from './results.ts';
import { checkUrl, guardedAgent } from '../fetch/ssrf.ts';
import { targetGuard } from '../config/settings.ts';
import { openSecret } from './secrets.ts';
import { monitorWebhookPart } from './monitor-webhook-part.ts';
import { eventBody } from './event-body.ts';

const RETRY_SCHEDULE_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 6 * 3600_000];

export function signBody(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/** How long after a request's end its delivery round starts, so that ends close together share it. */
export const FINISHED_ROUND_MS = 50;

export class WebhookDispatcher {
  private timer: NodeJS.Timeout | null = null;
  private busy: Promise<void> | null = null;
  private readonly agent: Dispatcher;
  private soon: NodeJS.Timeout | null = null;
  /** A request's end may have queued a delivery: a round soon. Ends that come together (a burst of
   *  completions) share one round, not one claim query each (issue 37); the poll is its fallback. An
   *  end the store says made none (no webhook, no subscription: `deliveries` false) needs no round:
   *  on PostgreSQL a round is a statement, 0.2 of one a query in the service bench (issue 37). */
  private readonly onFinished = (_r: RequestRow, _results?: unknown, deliveries?: boolean) => {
    if (deliveries === false) return;
    this.soon ??= setTimeout(() => { this.soon = null; this.kick(); }, FINISHED_ROUND_MS);
  };

  constructor(private readonly ctx: AppContext, private readonly pollMs = 1_000, private readonly schedule = RETRY_SCHEDULE_MS) {
    this.agent = guardedAgent(targetGuard(ctx.settings), { keepAliveTimeout: 5_000 });
  }

  start(): void {
    this.timer = setInterval(() => this.kick(), this.pollMs);
    this.timer.unref();
    this.ctx.events.on('finished', this.onFinished);
  }

  /** Runs one round now unless one is running. */
  kick(): void {
    if (this.busy) return;
    this.busy = this.round().catch((e) => this.ctx.log.warn({ err: (e as Error).message }, 'webhook round failed')).finally(() => { this.busy = null; });
  }

  async round(): Promise<void> {
    const due = await this.ctx.store.claimDueWebhooks(this.ctx.now(), 20, 5 * 60_000);
    await Promise.all(due.map((d) => this.deliver(d)));
  }

  /** null: nothing to send any more (the request is gone); 'skip': an event that did not happen (./event-body.ts). */
  private async body(d: WebhookDelivery): Promise<{ body: string; secret: string } | 'skip' | null> {
    const [r, a] = await Promise.all([this.ctx.store.getRequest(d.requestId), this.ctx.store.getAccount(d.accountId)]);
    if (!r || !a) return null;
    const own = () => this.requestBody(r);
    const body = d.event === null ? await own() : await eventBody(this.ctx, { ...d, event: d.event }, r, own);
    if (body === null || body === 'skip') return body;
    return { body: JSON.stringify(body), secret: openSecret(a.webhookSecret, this.ctx.settings.secretKey) };
  }

  /** Decision 15's body of an ended request. */
  private async requestBody(r: RequestRow): Promise<Record<string, unknown>> {
    // A failed request says why (its results are empty rows, so this read is cheap); a successful
    // one's partial failures are at results_location.
    const errors = r.status === 'Failure' ? await failedQueries(this.ctx, r, 10) : [];
    // A monitor run's request: the run's changes ride along (src/app/monitor-webhook-part.ts).
    const monitor = await monitorWebhookPart(this.ctx, r);
    return {
      id: r.id, user_id: r.accountId, status: r.status === 'Success' ? 'SUCCESS' : 'FAILURE', api_task: true,
      results_location: resultsLocation(this.ctx, r.id), quota_usage: [{ product_name: r.product, quantity: r.usage }],
      ...(errors.length ? { errors } : {}),
      ...(monitor ? { monitor } : {}),
    };
  }

  private async deliver(d: WebhookDelivery): Promise<void> {
    const now = this.ctx.now();
    const nextAt = d.attempts < this.schedule.length ? now + this.schedule[d.attempts] : null;
    const payload = await this.body(d);
    if (payload === 'skip') return this.ctx.store.recordWebhookAttempt(d.id, 0, true, null, now);
    if (!payload) return this.ctx.store.recordWebhookAttempt(d.id, 0, false, null, now);
    let status = 0;
    try {
      await checkUrl(d.url, { ...targetGuard(this.ctx.settings), allowCredentials: true });
      const res = await request(d.url, {
        method: 'POST', dispatcher: this.agent, body: payload.body,
        headers: {
          'content-type': 'application/json', 'x-hub-signature-256': signBody(payload.body, payload.secret), 'user-agent': 'trawl-webhook/1',
          ...(d.event ? { 'x-webhook-event': d.event } : {}),
        },
        headersTimeout: this.ctx.settings.webhookTimeoutMs, bodyTimeout: this.ctx.settings.webhookTimeoutMs,
        signal: AbortSignal.timeout(this.ctx.settings.webhookTimeoutMs),
      });
      status = res.statusCode;
      await res.body.dump();
    } catch (e) {
      this.ctx.log.info({ requestId: d.requestId, event: d.event, err: (e as Error).message, detail: (e as { detail?: string }).detail }, 'webhook attempt failed');
    }
    const ok = status >= 200 && status < 300;
    await this.ctx.store.recordWebhookAttempt(d.id, status, ok, ok ? null : nextAt, this.ctx.now());
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.soon) clearTimeout(this.soon);
    this.ctx.events.off('finished', this.onFinished);
    await this.busy;
    await this.agent.close();
  }
}
