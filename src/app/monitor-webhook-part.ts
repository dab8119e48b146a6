/**
 * The part a monitor run adds to its request's webhook body (issue 29): the run, its counts and its
 * changes (the first 100; all of them at `changes_location`). The delivery is the request's own, so it
 * is made in the transaction that ends the request, signed, retried and logged like every webhook;
 * a delivery sent before the run was ended ends it first (the store ends a run once).
 *
 * @example await monitorWebhookPart(ctx, request) // { monitor_id, run_id, counts, changes, changes_location } or null
 */
import type { AppContext } from './context.ts';
import type { RequestRow } from '../store/contract.ts';
import { monitorStoreOf } from '../store/monitors/index.ts';
import { changeView } from './monitors.ts';
import { MONITOR_RUN, endRun } from './monitor-scheduler.ts';

const CHANGES_IN_BODY = 100;

export async function monitorWebhookPart(ctx: AppContext, r: RequestRow): Promise<Record<string, unknown> | null> {
  const runId = r.params?.[MONITOR_RUN];
  if (typeof runId !== 'string') return null;
  const store = monitorStoreOf(ctx.store);
  let run = await store.getRun(runId);
  if (!run) return null;
  if (run.status === 'running' || run.status === 'claimed') {
    if (run.status === 'claimed') await store.markRunning(run.id);
    await endRun(ctx, { ...run, status: 'running' }, r);
    run = (await store.getRun(runId))!;
  }
  const changes = await store.listChanges(run.accountId, run.monitorId, { runId: run.id, limit: CHANGES_IN_BODY + 1 });
  return {
    monitor_id: run.monitorId, run_id: run.id, run_status: run.status, reason: run.reason, baseline: run.baseline, counts: run.counts,
    changes: changes.slice(0, CHANGES_IN_BODY).map(changeView), changes_more: changes.length > CHANGES_IN_BODY,
    changes_location: `${ctx.settings.baseUrl}/monitors/${run.monitorId}/changes`,
  };
}
