/**
 * Webhooks, the store's delivery part (issue 16). A delivery row is created in the same transaction
 * that ends its request (so a crash cannot lose it); the body is composed at send time from the
 * request (decision 15). Failed attempts are kept as the account's webhook call log.
 *
 * @example for (const d of await store.claimDueWebhooks(Date.now(), 10, 30_000)) send(d)
 */

/** A pending webhook call. */
export interface WebhookDelivery {
  id: string;
  accountId: string;
  requestId: string;
  url: string;
  attempts: number;
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
}
