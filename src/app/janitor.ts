/**
 * The janitor: drops results past their retention and requests past the history period, and merges
 * old usage lines into day lines (USAGE_ROLLUP_DAYS), in
 * batches of `batch` requests, each its own short transaction, with an event-loop turn between
 * batches, so a large backlog (100k expired requests) never blocks the API for seconds (issue 15).
 * One pass at a time: a pass still running when the next tick comes is not doubled.
 *
 * @example const stop = startJanitor(ctx, 60_000); // later: stop()
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AppContext } from './context.ts';
import { monitorStoreOf } from '../store/monitors/index.ts';

/** A purge transaction should hold the event loop at most about this long (issue 15: max < 100 ms,
 *  with the streams, exports and queries of the same turn beside it). */
export const PURGE_BUDGET_MS = 8;

/** One purge pass (`inBatches`): `batch` is the most requests per transaction, 0 = all in one. */
export async function purgeExpired(ctx: Pick<AppContext, 'store' | 'settings' | 'now'>, batch: number, clock: () => number = () => performance.now()): Promise<number> {
  return inBatches((limit) => {
    const now = ctx.now();
    return ctx.store.purge(now - ctx.settings.retentionMs, now - ctx.settings.historyMs - 3600_000, limit);
  }, batch, clock);
}

/** Usage lines per roll-up transaction per request of `PURGE_BATCH`: merging a line writes less than purging a request. */
export const ROLLUP_LINES_PER_REQUEST = 10;

/**
 * Merges usage lines older than `usageRollupMs` (whole UTC days only) into day lines, in batches
 * like the purge; resolves with the lines merged. The ledger would otherwise keep one row per
 * billed query for good (issue 15); the day lines keep every day's and period's sums exact.
 */
export async function rollupUsage(ctx: Pick<AppContext, 'store' | 'settings' | 'now'>, batch: number, clock: () => number = () => performance.now()): Promise<number> {
  if (!(ctx.settings.usageRollupMs > 0)) return 0;
  return inBatches((limit) => ctx.store.rollupUsage(startOfUtcDay(ctx.now() - ctx.settings.usageRollupMs), limit), batch * ROLLUP_LINES_PER_REQUEST, clock);
}

const startOfUtcDay = (t: number) => Math.floor(t / 86_400_000) * 86_400_000;

/** The first transaction of a pass: at most this many rows, doubled while they are quick. */
export const FIRST_BATCH = 10;

/**
 * Calls `step` batch after batch until one comes back short; resolves with the rows touched.
 * `batch` is the most rows per transaction. A pass starts at FIRST_BATCH rows (a row's cost is not
 * known yet: a purged request may free many pages); a transaction that takes longer than
 * PURGE_BUDGET_MS scales the next one down to fit it (a slow disk, a WAL checkpoint, a loaded box,
 * large results), a quick one doubles it back up to `batch`. `batch` 0 = everything in one
 * transaction (the bench's "before").
 */
async function inBatches(step: (limit: number | undefined) => Promise<number>, batch: number, clock: () => number): Promise<number> {
  let total = 0;
  let size = Math.min(batch, FIRST_BATCH);
  for (;;) {
    const t = clock();
    const n = await step(batch > 0 ? size : undefined);
    if (!(batch > 0)) return n;
    total += n;
    if (n < size) return total;
    const took = clock() - t;
    if (took > PURGE_BUDGET_MS) size = Math.max(1, Math.floor((size * PURGE_BUDGET_MS) / took));
    else if (took < PURGE_BUDGET_MS / 4) size = Math.min(batch, size * 2);
    await nextTurn();
  }
}

/** Monitor runs and changes past MONITOR_RUNS_DAYS / MONITOR_CHANGES_DAYS, in batches like the purge
 *  (issue 39); resolves with the rows deleted. A retention of 0 keeps that kind for good. */
export async function purgeMonitorHistory(ctx: Pick<AppContext, 'store' | 'settings' | 'now'>, batch: number, clock: () => number = () => performance.now()): Promise<number> {
  const { monitorRunsMs: runs, monitorChangesMs: changes } = ctx.settings;
  if (!(runs > 0) && !(changes > 0)) return 0;
  const store = monitorStoreOf(ctx.store);
  return inBatches((limit) => {
    const now = ctx.now();
    return store.purgeHistory(runs > 0 ? now - runs : 0, changes > 0 ? now - changes : 0, limit ?? 1_000_000_000);
  }, batch, clock);
}

/** Runs `purgeExpired`, then `rollupUsage`, then `purgeMonitorHistory`, every `everyMs`; returns the timer (unref'd) for the caller to clear. */
export function startJanitor(ctx: AppContext, everyMs: number): NodeJS.Timeout {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    purgeExpired(ctx, ctx.settings.purgeBatch)
      .then(() => rollupUsage(ctx, ctx.settings.purgeBatch))
      .then(() => purgeMonitorHistory(ctx, ctx.settings.purgeBatch))
      .catch((e) => ctx.log.warn({ err: (e as Error).message }, 'purge failed'))
      .finally(() => { running = false; });
  }, everyMs);
  timer.unref();
  return timer;
}
