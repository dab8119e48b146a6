/**
 * The janitor: drops results past their retention and requests past the history period, in
 * batches of `batch` requests, each its own short transaction, with an event-loop turn between
 * batches, so a large backlog (100k expired requests) never blocks the API for seconds (issue 15).
 * One pass at a time: a pass still running when the next tick comes is not doubled.
 *
 * @example const stop = startJanitor(ctx, 60_000); // later: stop()
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AppContext } from './context.ts';

/**
 * One pass: purges batch after batch until a batch comes back short; resolves with the rows
 * touched. `batch` 0 = everything in one transaction (the bench's "before").
 */
export async function purgeExpired(ctx: Pick<AppContext, 'store' | 'settings' | 'now'>, batch: number): Promise<number> {
  let total = 0;
  for (;;) {
    const now = ctx.now();
    const n = await ctx.store.purge(now - ctx.settings.retentionMs, now - ctx.settings.historyMs - 3600_000, batch > 0 ? batch : undefined);
    if (!(batch > 0)) return n;
    total += n;
    if (n < batch) return total;
    await nextTurn();
  }
}

/** Runs `purgeExpired` every `everyMs`; returns the timer (unref'd) for the caller to clear. */
export function startJanitor(ctx: AppContext, everyMs: number): NodeJS.Timeout {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    purgeExpired(ctx, ctx.settings.purgeBatch)
      .catch((e) => ctx.log.warn({ err: (e as Error).message }, 'purge failed'))
      .finally(() => { running = false; });
  }, everyMs);
  timer.unref();
  return timer;
}
