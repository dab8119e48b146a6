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
  /** The response; its body either here or, as UTF-16 code units, in `shared`. */
  response: Omit<FetchedResponse, 'body'> & { body?: string };
  /** The body's `chars` code units, written by the caller into shared memory it does not touch
   *  until this job ends (./body-slots.ts). */
  shared?: { buffer: SharedArrayBuffer; chars: number };
  ctx: QueryContext;
}

const registry = defaultRegistry();

export default async function parseJob(job: ParseJob): Promise<ParseResult> {
  const body = job.shared ? Buffer.from(job.shared.buffer, 0, job.shared.chars * 2).toString('utf16le') : job.response.body ?? '';
  const adapter = await registry.load(job.endpoint);
  if (adapter?.kind !== 'web') throw new Error(`no web adapter serves ${job.endpoint}`);
  return adapter.parse(job.step, { ...job.response, body }, job.ctx);
}
