/**
 * A data tool's request, from submit to records (issue 36): submitted asynchronously like any API
 * call (so metered and billed as one), then, unless `execution` is `async`, waited for up to the
 * call's cap; past it the answer is the request id and how to fetch the records, never a timeout.
 * Records come a page at a time under the token budget, each page saying where the next starts.
 *
 * @example await resultPage(api, 'r1', 0, opts) // { request_id, status: 'Success', records_total, offset, records, next_offset, ... }
 */
import type { ApiCall } from './api.ts';
import { reasonOf } from './api.ts';
import { fitRecords } from './budget.ts';
import type { McpOptions } from '../config/mcp-options.ts';
import { fail, ok, type ToolResult } from './result.ts';

export type Execution = 'auto' | 'sync' | 'async';

const enc = encodeURIComponent;

/** The next step a model takes for a request still running. */
export function pendingAnswer(id: string, why: string): ToolResult {
  return ok({
    request_id: id, status: 'Pending', message: why,
    next: `Call the requests_get tool with {"requestId": "${id}"} to fetch its records (it answers Pending until the request ends; wait a few seconds between calls).`,
  });
}

/** One page of an ended request's records from `offset`, or the Pending answer, or a tool error. */
export async function resultPage(api: ApiCall, id: string, offset: number, o: McpOptions, fields?: string): Promise<ToolResult | 'pending'> {
  const a = await api('GET', `/requests/${enc(id)}?flat=true${fields ? `&fields=${enc(fields)}` : ''}`);
  if (a.status === 202) return 'pending';
  if (a.status === 204) return fail(`request ${id} failed: ${a.headers['x-request-error'] ?? 'no query succeeded'}`);
  if (a.status !== 200) return fail(reasonOf(a));
  const body = JSON.parse(a.text) as { status: string; data: unknown[]; errors?: unknown[]; expired?: boolean };
  // A running request reads 200 Pending (interface 4.6); one past its retention, Pending with expired.
  if (body.status === 'Pending') return body.expired ? fail(`request ${id}'s results are gone: they are kept 4 hours after it ends`) : 'pending';
  const records = Array.isArray(body.data) ? body.data : [];
  const { shown, next } = fitRecords(records, offset, o.budget);
  return ok({
    request_id: id, status: body.status, records_total: records.length, offset, records: shown, next_offset: next,
    ...(next !== null ? { more: `${records.length - next} more records: call requests_get with {"requestId": "${id}", "offset": ${next}} (results are kept 4 hours after the request ends).` } : {}),
    ...(body.errors?.length ? { errors: body.errors } : {}),
  });
}

/** Waits for the request up to `capMs` (polling its result), then pages it; past the cap, its id. */
export async function waitAndPage(api: ApiCall, id: string, capMs: number, o: McpOptions, fields?: string): Promise<ToolResult> {
  const deadline = Date.now() + capMs;
  let pause = o.pollMs;
  for (;;) {
    const page = await resultPage(api, id, 0, o, fields);
    if (page !== 'pending') return page;
    const left = deadline - Date.now();
    if (left <= 0) return pendingAnswer(id, `still running after ${Math.round(capMs / 1000)} s (this call's cap)`);
    await new Promise((r) => setTimeout(r, Math.min(pause, left)));
    pause = Math.min(pause * 2, 2_000);
  }
}

/** Submits a data request (async, so it is one billed request like any client's) and runs it per `execution`. */
export async function runData(api: ApiCall, path: string, query: string, execution: Execution, big: boolean, o: McpOptions, fields?: string): Promise<ToolResult> {
  const a = await api('GET', `${path}?${query}&async=true`);
  if (a.status !== 202 && a.status !== 200) return fail(reasonOf(a));
  const id = (JSON.parse(a.text) as { id: string }).id;
  if (execution === 'async') return pendingAnswer(id, 'submitted (execution: async)');
  if (execution === 'auto' && big) return pendingAnswer(id, 'submitted asynchronously: a big job (execution: auto)');
  return waitAndPage(api, id, o.capMs, o, fields);
}
