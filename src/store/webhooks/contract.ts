/**
 * Webhooks, the store's delivery part (issue 16). A delivery row is created in the same transaction
 * that ends its request (so a crash cannot lose it); the body is composed at send time from the
 * request (decision 15). Failed attempts are kept as the account's webhook call log.
 *
 * Subscriptions (issue 36, POST /webhooks) add deliveries of their own, made in the same writes: one
 * per subscription naming the event, when a request ends (`request.finished`, and `monitor.changes`
 * for a monitor run's request) and when a task's file is written (`task.file_ready`). Their id is
 * `<request id>|<subscription id>|<event>`, so ending a request twice makes none twice.
 *
 * @example for (const d of await store.claimDueWebhooks(Date.now(), 10, 30_000)) send(d)
 */
import type { WebhookEvent } from '../../contract/webhooks.ts';

/** A pending webhook call. */
export interface WebhookDelivery {
  id: string;
  accountId: string;
  requestId: string;
  url: string;
  attempts: number;
  /** null: the request's own webhook (or the account's integration webhook); else a subscription's event. */
  event: WebhookEvent | null;
  subscriptionId: string | null;
}

export interface WebhookSubscription {
  id: string;
  accountId: string;
  url: string;
  events: WebhookEvent[];
  description: string | null;
  created: number;
}

export interface WebhookCall {
  status: string;
  date: number;
}

export interface WebhookStore {
  claimDueWebhooks(now: number, max: number, leaseMs: number): Promise<WebhookDelivery[]>;
  /** statusCode 0 = connection error or timeout; nextAt null = no more attempts. */
  recordWebhookAttempt(id: string, statusCode: number, ok: boolean, nextAt: number | null, now: number): Promise<void>;
  listWebhookCalls(accountId: string, since: number, limit: number): Promise<WebhookCall[]>;
  /** Adds `s` unless its account holds `max` subscriptions already (then false). */
  createWebhookSubscription(s: WebhookSubscription, max: number): Promise<boolean>;
  /** The account's subscriptions, newest first. */
  listWebhookSubscriptions(accountId: string): Promise<WebhookSubscription[]>;
  /** False when the account has no subscription `id`. */
  deleteWebhookSubscription(accountId: string, id: string): Promise<boolean>;
}
