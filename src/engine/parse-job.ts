/**
 * One adapter parse on a parse thread (issue 15): the adapter is loaded here from the served
 * registry, so the response body's JSON.parse and the mapper (a third of the API thread's CPU on a
 * map search) run off the API's event loop. The caller's side is ./parse-thread.ts.
 */
import type { FetchedResponse, ParseResult, QueryContext, Step } from '../sources/_kit/adapter.ts';
import { defaultRegistry } from '../sources/registry.ts';

export interface ParseJob {
  endpoint: string;
  step: Step;
  response: FetchedResponse;
  ctx: QueryContext;
}

const registry = defaultRegistry();

export default async function parseJob(job: ParseJob): Promise<ParseResult> {
  const adapter = await registry.load(job.endpoint);
  if (adapter?.kind !== 'web') throw new Error(`no web adapter serves ${job.endpoint}`);
  return adapter.parse(job.step, job.response, job.ctx);
}
