/**
 * The source adapter contract (DESIGN.md principle 2): adapters are pure.
 *
 * A web adapter turns one query into steps (`plan`) and one fetched response into records plus
 * further steps (`parse`). Neither does I/O, so both are tested on captured responses alone.
 * A local adapter (lookups that need no third-party site) computes records from shipped data or
 * protocol probes through the `LookupContext` it is handed; it still never opens sockets itself
 * except through that context.
 *
 * @example
 *   const steps = adapter.plan('coffee berlin', params);
 *   const out = adapter.parse(steps[0], { status: 200, url, headers: {}, body }, params);
 *   out.records; out.next; out.cursor
 */
import type { SourceErrorType } from './errors.ts';
import type { PageTally } from './tally.ts';
import type { StubNote } from './stub.ts';
import type { Learned } from './learned.ts';

/** What kind of body a step expects back; the executor decodes accordingly. */
export type Expect = 'json' | 'xssi-json' | 'html' | 'text';

/** One fetch a source adapter asks for. Plain data: it is stored with the work item. */
export interface Step {
  /** Adapter-defined name of the response kind (e.g. 'search', 'place', 'reviews-page'). */
  kind: string;
  url: string;
  method?: 'GET' | 'POST' | 'PUT';
  headers?: Record<string, string>;
  body?: string;
  expect: Expect;
  /** True when the URL (or a part of it) came from the user: the executor applies the SSRF guard. */
  userUrl?: boolean;
  /** A smaller body limit than the executor's (e.g. third-party websites read by enrichments). */
  maxBytes?: number;
  /** Needs a real browser (no HTTP path). */
  browser?: boolean;
  /** `node`: send with Node's own HTTP client (undici) instead of the browser-true transport (plain APIs, lookups). */
  transport?: 'node';
  /** Statuses `parse` reads itself rather than the executor's plain status rule (`http-403`): the
   *  403 a site gives every signed-out visitor of a part it limits (issue 34). A page the detection
   *  table names (a captcha, a bot wall) still throws. */
  answers?: number[];
  /** Ask from another identity than the work item's (another pooled session, another signed-in
   *  account or none, so another proxy): set by the runner on the one re-ask of a step whose answer
   *  was a stub (./stub.ts). */
  another?: boolean;
  /** Adapter state carried to `parse` (page number, cell, counts so far). JSON-serialisable. */
  state?: Record<string, unknown>;
}

/** What the executor hands to `parse`. */
export interface FetchedResponse {
  status: number;
  /** Final URL after redirects. */
  url: string;
  headers: Record<string, string>;
  /** Decoded body text. */
  body: string;
}

/** What `parse` returns. */
export interface ParseResult<R = Record<string, unknown>> {
  records: R[];
  /** Further steps of the same query (next page, place details, map cells). */
  next?: Step[];
  /**
   * The site's own continuation token for this chunk, if it has one (informational). The runner does
   * not read it: clients get `next_page_cursor` from the runner (src/engine/cursor.ts), which signs
   * the steps still to run (and how many records of the next one were delivered), so every adapter
   * without `finish` on a paged endpoint gets decision 23 for free. An adapter that must resume from
   * the site's token keeps it in the next step's `state` (or URL); one that wants it visible puts it
   * in a record field of its own (e.g. `review_pagination_id`).
   */
  cursor?: string | null;
  /** Figures about the whole query the adapter knows at its last step (an area's coverage): the
   *  runner keeps the last one given and stores it beside the query's result (`area: <json>` in its
   *  note), where GET /requests/{id} shows it as the `areas` extension field. */
  summary?: Record<string, unknown>;
  /** What this step read of each paged list and what the answer says exists (./tally.ts): the
   *  runner compares them when a list ends, so a list read short ends the query with a typed reason
   *  (`limited_view`, `incomplete`) instead of passing for the whole. */
  tallies?: PageTally[];
  /** Records of this answer that are stubs (./stub.ts): short of what the page shows for such a
   *  record. The runner asks the step again once from another identity and serves what stays a stub
   *  with a reason (`stub`). */
  stubs?: StubNote[];
  /** What this step proved of the site's view cap (./learned.ts): the runner merges a query's and
   *  keeps it with the query's note, where a monitor's next run reads it as a prior. */
  learned?: Learned;
}

/** What `finish` returns for a query that found nothing (decision 20: it may still cost one unit).
 *  The runner drops it from the query's results. */
export interface NoResult {
  query: string;
  no_result: true;
}

/** @example isNoResult({ query: 'x', no_result: true }) // true */
export function isNoResult(r: unknown): r is NoResult {
  return typeof r === 'object' && r !== null && (r as NoResult).no_result === true;
}

/** Context of one query: its parameters (validated, with defaults) and the request's options. */
export interface QueryContext<P = Record<string, unknown>> {
  query: string;
  params: P;
}

/** Shared by both adapter kinds. */
interface AdapterBase {
  /** The endpoint path this adapter serves, e.g. '/maps/search'. */
  endpoint: string;
  /** Checked at submit time for every query: a message (e.g. `query "91,200" is not a coordinate
   *  pair: latitude must be from -90 to 90`) makes the whole request a 422; undefined accepts it. */
  checkQuery?(query: string): string | undefined;
  /** Billable units of one query's final records, when a record is not one unit (map reviews bill
   *  per review inside a place element). Default: one per record. */
  units?(records: unknown[]): number;
}

export interface WebAdapter<P = Record<string, unknown>, R = Record<string, unknown>> extends AdapterBase {
  kind: 'web';
  /** Query → first steps. Throws `SourceError('invalid_query')` for a query it cannot understand. */
  plan(ctx: QueryContext<P>): Step[];
  /** Step + response → records and further steps. Never throws on an unexpected shape: a missing
   *  branch is a null field; a missing everything is `SourceError('layout_changed')`. */
  parse(step: Step, response: FetchedResponse, ctx: QueryContext<P>): ParseResult<R>;
  /** Optional: merge/finish the records of all steps of one query (dedupe cells, apply limits).
   *  Without it the runner streams: each step's records are stored as they come (never the whole
   *  query in memory), the query's `limit` is applied, and a retry resumes at the step that failed. */
  finish?(records: R[], ctx: QueryContext<P>): R[];
  /** Optional: true when this query's plan and parses may hold a thread for more than a few ms or
   *  read data files on first use (an area's covering: its shape, root views and density prior).
   *  Where parse threads run (src/engine/parse-thread.ts), its plan and every parse of it run there,
   *  whatever a body's size, never on the API thread (issue 39: no request holds it 50 ms). */
  offThread?(ctx: QueryContext<P>): boolean;
}

/** Services a local adapter may use; tests substitute loopback peers. */
export interface LookupContext {
  /** Settings (resolver addresses, SMTP port, geocoding engine URL...). */
  settings: Record<string, unknown>;
  signal?: AbortSignal;
}

export interface LocalAdapter<P = Record<string, unknown>, R = Record<string, unknown>> extends AdapterBase {
  kind: 'local';
  /** One query → its records. May be async (protocol probes). */
  lookup(ctx: QueryContext<P>, lookup: LookupContext): Promise<R[]>;
  /** Loads shipped data once per process; optional. */
  warmUp?(): Promise<void>;
}

export type SourceAdapter<P = any, R = any> = WebAdapter<P, R> | LocalAdapter<P, R>;
export type { SourceErrorType };

/** The served adapters by endpoint (sources/registry.ts builds it). Adapters load on first use: their data (geo indexes, phone metadata) costs start-up time. */
export interface AdapterRegistry {
  load(endpoint: string): Promise<SourceAdapter | undefined>;
  /** The endpoint paths it serves (the docs page and the 501 answer name them). */
  endpoints(): string[];
}
