/**
 * The checks a request's submit runs that read data files or cost more than a few ms, on a check
 * thread (./checks.ts is the caller's side): a task's expansion of categories × locations, and an
 * `area` parameter's check (a location looked up, a drawn shape read and checked for crossings). A refusal comes back as its message; anything else thrown is a fault.
 * The thread loads the data those checks read before it takes its first job.
 */
import { AppError } from './errors.ts';
import { taskQueries, type TaskQueries } from './task-queries.ts';
import { checkArea } from '../lookups/geo/area/resolve.ts';
import { zipsIn } from '../lookups/geo/zip-areas.ts';

// The data a check reads, loaded as the thread starts (seconds on a loaded machine), so that the
// check's time budget (./checks.ts) measures the check, never the first read of a file.
checkArea('US>Nevada>Clark County');
checkArea('FR>Paris');
checkArea('90210');
zipsIn('US>Vermont');
zipsIn('MY>Perlis');

export type CheckJob =
  | { kind: 'task'; body: Record<string, unknown>; areas: boolean }
  | { kind: 'area'; value: string };

/** The check's answer, or the 422's message. */
export type CheckAnswer = { task: TaskQueries } | { rule: string | null } | { refused: string };

export default async function checkJob(job: CheckJob): Promise<CheckAnswer> {
  try {
    if (job.kind === 'task') return { task: taskQueries(job.body, job.areas) };
    return { rule: checkArea(job.value) ?? null };
  } catch (e) {
    if (e instanceof AppError && e.status === 422) return { refused: e.detail };
    throw e;
  }
}
