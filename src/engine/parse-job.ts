/**
 * One adapter parse, or one query's plan, on a parse thread (issue 15; the plan: issue 39 item 1):
 * the adapter is loaded here from the served registry, so the response body's JSON.parse and the
 * mapper (a third of the API thread's CPU on a map search) run off the API's event loop, and so
 * does a plan that reads data files or computes for long (an area's first covering: its shape,
 * root views and density prior, 0.7-1.4 s at load 7-10). The caller's side is ./parse-thread.ts.
 *
 * `jobOf(registry)` makes the same job over another registry (tests: the loopback map site's
 * adapter, test/support/site-parse-job.ts).
 */
import type { FetchedResponse, ParseResult, QueryContext, Step } from '../sources/_kit/adapter.ts';
import type { AdapterRegistry } from '../sources/_kit/adapter.ts';
import { defaultRegistry } from '../sources/registry.ts';
import { slotResponse, type BodySlot } from './body-slots.ts';

export interface ParseJob {
  kind?: 'parse';
  endpoint: string;
  step: Step;
  /** The response; its body either here or, as UTF-16 code units or the fetched bytes, in `shared`. */
  response: Omit<FetchedResponse, 'body'> & { body?: string };
  /** The body, written by the caller into shared memory it does not touch until this job ends
   *  (./body-slots.ts). */
  shared?: BodySlot;
  ctx: QueryContext;
}

/** A query's first steps (`adapter.plan`). */
export interface PlanJob { kind: 'plan'; endpoint: string; ctx: QueryContext }

/** The job of a parse thread over `registry`'s web adapters. */
export function jobOf(registry: AdapterRegistry): (job: ParseJob | PlanJob) => Promise<ParseResult | Step[]> {
  return async (job) => {
    const adapter = await registry.load(job.endpoint);
    if (adapter?.kind !== 'web') throw new Error(`no web adapter serves ${job.endpoint}`);
    if (job.kind === 'plan') return adapter.plan(job.ctx);
    const response = job.shared ? slotResponse(job.response, job.shared) : { ...job.response, body: job.response.body ?? '' };
    return adapter.parse(job.step, response, job.ctx);
  };
}

export default jobOf(defaultRegistry());
