/**
 * Webhook subscriptions (issue 36; docs/integrations.md): an extension of the interface, account
 * operations with neutral names. A subscription asks for a signed POST to its URL on every event of
 * the kinds it names, for any request of the account, without a `webhook` on each call: what REST-hook
 * consumers (workflow tools' triggers) register and remove.
 */
import { Type, literals, str } from './dsl.ts';
import * as R from './records.ts';
import type { AccountOperation } from './operation.ts';

/** The events a subscription can name. */
export const WEBHOOK_EVENTS = ['request.finished', 'task.file_ready', 'monitor.changes'] as const;
export type WebhookEvent = typeof WEBHOOK_EVENTS[number];

/** Subscriptions one account may hold (a 422 past it): each is one more POST per event. */
export const MAX_WEBHOOK_SUBSCRIPTIONS = 25;

const event = literals(WEBHOOK_EVENTS, 'request.finished: any request of the account ended (Success or Failure); task.file_ready: a task\'s result file was written; monitor.changes: a monitor run ended having found at least one change.');

export const webhookSubscriptionBody = Type.Object({
  url: Type.String({ maxLength: 2000, description: 'Absolute http(s) URL that receives the signed POSTs; checked by the SSRF guard now and at every delivery.' }),
  events: Type.Array(event, { minItems: 1, maxItems: WEBHOOK_EVENTS.length, uniqueItems: true, description: 'The events to receive.' }),
  description: Type.Optional(Type.String({ maxLength: 200, description: 'A note for you (what subscribed it).' })),
}, { additionalProperties: false });

export const webhookSubscription = Type.Object({
  id: Type.String({ description: 'The subscription\'s id (`whs_` + 24 hex digits).' }),
  url: Type.String(), events: Type.Array(event), description: Type.Union([Type.String(), Type.Null()]),
  created: Type.Integer({ description: 'Unix seconds.' }),
}, { $id: 'WebhookSubscription', description: 'A webhook subscription (an extension: not in the interface).' });

const subscriptionId = str({ maxLength: 100, doc: 'The subscription\'s id.' });

export const webhookOperations: AccountOperation[] = [
  { method: 'POST', path: '/webhooks', summary: 'Subscribes a URL to events of the account: signed POSTs, retried on the webhook schedule, failures in /webhook-calls (extension).',
    body: webhookSubscriptionBody, answers: { 200: webhookSubscription, 401: R.errorBody, 413: R.errorBody, 422: R.errorBody } },
  { method: 'GET', path: '/webhooks', summary: 'The account\'s webhook subscriptions, newest first (extension).',
    answers: { 200: Type.Object({ webhooks: Type.Array(webhookSubscription) }), 401: R.errorBody } },
  { method: 'DELETE', path: '/webhooks/{subscriptionId}', summary: 'Removes a webhook subscription; deliveries already due are still sent (extension).',
    params: { subscriptionId }, answers: { 200: 'text', 401: R.errorBody, 404: R.errorBody } },
];
