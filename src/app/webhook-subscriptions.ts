/**
 * Webhook subscriptions (issue 36, `/webhooks`): an account's URL that receives a signed POST on every
 * event of the kinds it names. The URL passes the same checks as a request's `webhook` (absolute
 * http(s), the SSRF guard: a 422) here, and the guard again at every delivery (src/app/webhook-dispatcher.ts).
 *
 * @example await createSubscription(ctx, account.id, { url: 'https://hooks.example/t', events: ['request.finished'] })
 */
import { randomBytes } from 'node:crypto';
import type { AppContext } from './context.ts';
import { AppError } from './errors.ts';
import { checkWebhook } from './submit.ts';
import type { WebhookSubscription } from '../store/contract.ts';
import { MAX_WEBHOOK_SUBSCRIPTIONS, WEBHOOK_EVENTS, type WebhookEvent } from '../contract/webhooks.ts';

const KNOWN = new Set(['url', 'events', 'description']);

export function subscriptionView(s: WebhookSubscription) {
  return { id: s.id, url: s.url, events: s.events, description: s.description, created: Math.floor(s.created / 1000) };
}

function eventsOf(v: unknown): WebhookEvent[] {
  const list = typeof v === 'string' ? [v] : v;
  if (!Array.isArray(list) || list.length === 0) throw new AppError(422, `events is required: one or more of ${WEBHOOK_EVENTS.join(', ')}`);
  const out = new Set<WebhookEvent>();
  for (const e of list) {
    if (!(WEBHOOK_EVENTS as readonly unknown[]).includes(e)) {
      throw new AppError(422, `events: unknown event ${JSON.stringify(String(e).slice(0, 100))}; known: ${WEBHOOK_EVENTS.join(', ')}`);
    }
    out.add(e as WebhookEvent);
  }
  return [...out];
}

export async function createSubscription(ctx: AppContext, accountId: string, body: Record<string, unknown>) {
  const unknown = Object.keys(body).filter((k) => !KNOWN.has(k));
  if (unknown.length) throw new AppError(422, `unknown field ${JSON.stringify(unknown[0].slice(0, 100))}; known: url, events, description`);
  if (typeof body.url !== 'string' || !body.url) throw new AppError(422, 'url is required: the absolute http(s) URL that receives the events');
  if (body.url.length > 2000) throw new AppError(422, 'url is longer than 2000 characters');
  if (body.description != null && (typeof body.description !== 'string' || body.description.length > 200)) {
    throw new AppError(422, 'description must be a string of at most 200 characters');
  }
  const events = eventsOf(body.events);
  await checkWebhook(ctx, body.url);
  const s: WebhookSubscription = {
    id: `whs_${randomBytes(12).toString('hex')}`, accountId, url: body.url, events,
    description: (body.description as string | undefined) ?? null, created: ctx.now(),
  };
  if (!await ctx.store.createWebhookSubscription(s, MAX_WEBHOOK_SUBSCRIPTIONS)) {
    throw new AppError(422, `an account holds at most ${MAX_WEBHOOK_SUBSCRIPTIONS} webhook subscriptions: delete one first (DELETE /webhooks/{id})`);
  }
  return subscriptionView(s);
}

export async function listSubscriptions(ctx: AppContext, accountId: string) {
  return { webhooks: (await ctx.store.listWebhookSubscriptions(accountId)).map(subscriptionView) };
}

export async function deleteSubscription(ctx: AppContext, accountId: string, id: string): Promise<string> {
  if (!await ctx.store.deleteWebhookSubscription(accountId, id)) throw new AppError(404, `no webhook subscription ${JSON.stringify(id.slice(0, 100))}`);
  return `webhook subscription ${id} deleted; a delivery already due is still sent`;
}
