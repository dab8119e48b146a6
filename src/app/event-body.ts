/**
 * The bodies of webhook subscription deliveries (issue 36; docs/integrations.md), composed at send
 * time like a request's own webhook body (decision 15), which `request.finished` repeats with the
 * event's name and the subscription's id added. `monitor.changes` carries the run's part
 * (src/app/monitor-webhook-part.ts) and is not sent for a run that found no change; `task.file_ready`
 * carries the task and its file's URL.
 *
 * @example await eventBody(ctx, delivery, request, () => requestBody(...)) // { event: 'task.file_ready', ... } | 'skip' | null
 */
import type { AppContext } from './context.ts';
import type { RequestRow, WebhookDelivery } from '../store/contract.ts';
import { monitorWebhookPart } from './monitor-webhook-part.ts';

type Body = Record<string, unknown>;

/** null: nothing to send any more (the task is gone); 'skip': this event did not happen after all. */
export async function eventBody(ctx: AppContext, d: WebhookDelivery & { event: NonNullable<WebhookDelivery['event']> }, r: RequestRow,
  requestBody: () => Promise<Body>): Promise<Body | 'skip' | null> {
  const head = { event: d.event, subscription_id: d.subscriptionId };
  if (d.event === 'request.finished') return { ...head, ...await requestBody() };
  if (d.event === 'monitor.changes') {
    const monitor = await monitorWebhookPart(ctx, r);
    const c = monitor?.counts as Record<string, number> | undefined;
    if (!monitor || !c || c.new + c.gone + c.changed + c.new_reviews + (c.removed ?? 0) === 0) return 'skip';
    return { ...head, request_id: r.id, monitor };
  }
  const t = await ctx.store.getTaskByRequest(r.id);
  if (!t || t.status !== 'SUCCESS') return null;
  return {
    ...head, id: t.id, user_id: t.accountId, status: t.status, request_id: r.id, service_name: t.serviceName,
    file_url: t.results[0]?.file_url ?? null, results: t.results,
  };
}
