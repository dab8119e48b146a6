/**
 * Request management: the history of the last 24 hours (interface 4.6, at most the latest 100) and
 * termination (decision 14).
 *
 * @example await history(ctx, account.id, { type: 'finished', skip: 0, pageSize: 20 }) // [{ id, usage: '12' }]
 */
import type { AppContext } from './context.ts';
import { failedQueries, ownRequest } from './results.ts';

export const HISTORY_MAX = 100;

export async function history(ctx: AppContext, accountId: string, o: { type: 'running' | 'finished'; skip: number; pageSize: number }) {
  const limit = Math.max(0, Math.min(o.pageSize, HISTORY_MAX - o.skip));
  if (limit === 0) return [];
  const rows = await ctx.store.listRequests(accountId, { finished: o.type === 'finished', since: ctx.now() - ctx.settings.historyMs, skip: o.skip, limit });
  // The interface's two fields, plus what a client needs to show the list without fetching each result.
  // A failed request's reason: its results read up to the first failed query (usually the first
  // result); successes and running requests have none and cost nothing more.
  return Promise.all(rows.map(async (r) => {
    const [why] = r.status === 'Failure' ? await failedQueries(ctx, r, 1) : [];
    return {
      id: r.id, usage: String(r.usage), endpoint: r.endpoint, status: r.status, created: Math.floor(r.createdAt / 1000),
      progress: { queries_total: r.queriesTotal, queries_done: r.queriesDone, records: r.records },
      ...(why ? { reason: `${why.error.type}: ${why.error.message}` } : {}),
    };
  }));
}

/** Cancels unfinished queries; the request ends as Failure; only extracted items stay billed. A request
 *  that had already ended is left as it was, and the answer says so. */
export async function terminate(ctx: AppContext, accountId: string, id: string): Promise<string> {
  await ownRequest(ctx, accountId, id);
  const fan = await ctx.store.cancelRequest(id, ctx.now());
  if (fan.finished) ctx.events.emit('finished', fan.finished);
  // The store cancels only a Pending request, atomically: otherwise it had ended before this call.
  if (!fan.applied) return `Request ${id} had already finished (${(await ctx.store.getRequest(id))?.status ?? 'ended'}); nothing was terminated`;
  return `Request ${id} terminated`;
}
