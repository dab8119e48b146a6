/**
 * Tasks whose request ended but whose file is not written (issue 28: a full disk left a task PENDING
 * until the process restarted): every TASK_RETRY_MS a process with workers writes them again, the
 * first time at start (a crash between the request's end and its file). finishTask decides each
 * one's fate: the file, FAILURE with the reason, or PENDING again while its cause lasts.
 *
 * @example const timer = startTaskRecovery(ctx, 30_000); ... clearInterval(timer);
 */
import type { AppContext } from './context.ts';
import { finishTask } from './tasks.ts';

/** Tasks looked at per sweep; the rest wait for the next. */
const SWEEP = 100;

export async function recoverTasks(ctx: AppContext): Promise<number> {
  let written = 0;
  for (const t of await ctx.store.strandedTasks(SWEEP)) {
    const r = t.requestId ? await ctx.store.getRequest(t.requestId) : null;
    if (!r) continue;
    // One task's failure (logged by finishTask) does not hold up the others.
    if (await finishTask(ctx, r).then(() => true, () => false)) written++;
  }
  return written;
}

export function startTaskRecovery(ctx: AppContext, everyMs: number): NodeJS.Timeout {
  let busy = false;
  const sweep = () => {
    if (busy) return;
    busy = true;
    recoverTasks(ctx).catch((e) => ctx.log.warn({ err: (e as Error).message }, 'task recovery failed')).finally(() => { busy = false; });
  };
  sweep();
  const timer = setInterval(sweep, everyMs);
  timer.unref();
  return timer;
}
