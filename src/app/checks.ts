/**
 * Submit-time checks off the API thread (issue 39): a task's expansion and an `area` parameter's
 * check read the postal and place data (seconds on first use) and can cost in proportion to what
 * a client sends (a drawn shape's edges, a task's locations). They run on a check thread
 * (./check-job.ts) with a time budget: a check still running after CHECK_BUDGET_MS (default 5 s; a
 * shape at the 100,000-vertex cap checks in well under a second) ends with its
 * thread and the request is a 422 saying so. Everything cheap stays here: a task given its
 * `queries`, an endpoint check without `area`.
 *
 * @example
 *   const { queries } = await taskQueriesChecked(body, true, 5000);   // 422 AppError when refused
 *   const rule = await endpointRule(decl, params, 5000);               // undefined, or the 422's text
 */
import { ThreadPool, ThreadTimeout } from '../ops/thread-pool.ts';
import type { DataEndpoint } from '../contract/endpoint.ts';
import { AppError } from './errors.ts';
import type { CheckAnswer, CheckJob } from './check-job.ts';
import type { TaskQueries } from './task-queries.ts';

/** Check threads: two, so one check at its budget leaves another thread answering. */
const THREADS = 2;

let pool: ThreadPool | null = null;

const checkPool = () => (pool ??= new ThreadPool(new URL('./check-job.ts', import.meta.url), THREADS));

async function run(job: CheckJob, what: string, budgetMs: number): Promise<CheckAnswer> {
  try {
    return await checkPool().run<CheckAnswer>(job, undefined, { timeoutMs: budgetMs });
  } catch (e) {
    if (e instanceof ThreadTimeout) throw new AppError(422, `${what} could not be checked within ${budgetMs / 1000} s; simplify it`);
    throw e;
  }
}

/** A task's queries (categories × locations expanded), or the 422 refusing them. */
export async function taskQueriesChecked(body: Record<string, unknown>, areas: boolean, budgetMs: number): Promise<TaskQueries> {
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  const given = strings(body.queries);
  const categories = strings(body.categories);
  if (given.length || !categories.length) return { queries: given, shown: given };
  if (!strings(body.locations).length) return { queries: categories, shown: categories };
  const { locations, useZipCodes, enrichLocations } = body;
  const a = await run({ kind: 'task', body: { categories, locations, useZipCodes, enrichLocations }, areas }, 'the task\'s locations', budgetMs);
  if ('refused' in a) throw new AppError(422, a.refused);
  return (a as { task: TaskQueries }).task;
}

/** The endpoint's own parameter check (`decl.check`, here), then its `area`'s (on a check thread). */
export async function endpointRule(decl: DataEndpoint, params: Record<string, unknown>, budgetMs: number): Promise<string | undefined> {
  const rule = decl.check?.(params);
  if (rule || typeof params.area !== 'string') return rule;
  const a = await run({ kind: 'area', value: params.area }, 'area', budgetMs);
  return 'refused' in a ? a.refused : (a as { rule: string | null }).rule ?? undefined;
}

/**
 * Starts a check thread in the background, resolved once it has loaded the data it reads: called
 * once the service listens (`trawl serve`), so the first request with an `area` or a task's
 * locations does not wait for the thread to start and read the postal and place files (at load
 * 9-10 on 2 cores the first `/maps/search?area=US>...` of a fresh service waited 17.7 s for its 202,
 * docs/performance/areas.md). The API thread is not held meanwhile: the loading is the thread's.
 */
export function warmChecks(): Promise<void> {
  return checkPool().warm();
}

/** Check threads started so far (tests: a warmed pool starts none for its first check). */
export const checkThreadsStarted = (): number => pool?.started ?? 0;

/** Ends the check threads (tests; idle threads never keep the process alive). */
export async function closeChecks(): Promise<void> {
  await pool?.close();
  pool = null;
}
