/**
 * trawl's TypeScript client: the types are generated from the server's /openapi.json
 * (./schema.ts, openapi-typescript); this small layer submits, polls with backoff, honours
 * Retry-After, reads a Failure (204 + X-Request-Status) without throwing, and pages POST /businesses.
 *
 * @example
 *   const trawl = new TrawlClient({ apiKey: process.env.TRAWL_API_KEY! });
 *   const r = await trawl.run('/reverse-geocoding', ['40.7580 -73.9855'], {}, { onProgress: (p) => console.log(p.queries_done) });
 *   if (r.status === 'Success') console.log(r.data[0][0].city);
 */
import type { components, paths } from './schema.ts';

type Get<P extends keyof paths> = paths[P] extends { get: infer O } ? O : never;
/** Paths of the data endpoints (those that take a `query` array). */
export type DataPath = { [P in keyof paths]: Get<P> extends { parameters: { query: { query: string[] } } } ? P : never }[keyof paths];
/** An endpoint's parameters other than `query`, as the contract declares them. */
export type ParamsOf<P extends DataPath> = Get<P> extends { parameters: { query: infer Q } } ? Omit<Q, 'query'> : never;
/** One record of an endpoint, as the contract declares it. */
export type RecordOf<P extends DataPath> = Get<P> extends { responses: { 200: { content: { 'application/json': { data?: (infer R)[][] } } } } } ? R : Record<string, unknown>;
type JsonOf<P extends keyof paths, M extends string, S extends number> = paths[P] extends { [m in M]: { responses: { [s in S]: { content: { 'application/json': infer B } } } } } ? B : never;

export type Balance = components['schemas']['Balance'];
export type Task = components['schemas']['Task'];
export type HistoryItem = JsonOf<'/requests', 'get', 200>[number];
export type ApiKeyItem = JsonOf<'/profile/keys', 'get', 200>[number];
export type Usage = JsonOf<'/profile/usage', 'get', 200>;
export type PriceList = JsonOf<'/profile/prices', 'get', 200>;
export type TaskBody = NonNullable<paths['/tasks']['post']['requestBody']>['content']['application/json'];
export type BusinessesBody = NonNullable<paths['/businesses']['post']['requestBody']>['content']['application/json'];
export type Business = components['schemas']['Business'];
export type Monitor = components['schemas']['Monitor'];
export type MonitorRun = components['schemas']['MonitorRun'];
export type MonitorChange = components['schemas']['MonitorChange'];
export type MonitorBody = NonNullable<paths['/monitors']['post']['requestBody']>['content']['application/json'];
export type MonitorPatch = NonNullable<paths['/monitors/{monitorId}']['patch']['requestBody']>['content']['application/json'];

/** Progress of a running request as GET /requests/{id} states it (with `area` for area queries). */
export type AreaProgress = NonNullable<NonNullable<JsonOf<'/requests/{requestId}', 'get', 202>['progress']>['area']>;
export interface Progress { queries_total: number; queries_done: number; records: number; elapsedMs: number; area?: AreaProgress }
/** How complete an area query believes it is (the `areas` extension field, docs/areas.md). */
export interface AreaCoverage { query: string; /** The area value (left out for a long shape): a task's queries share a phrase. */ area?: string; views_searched?: number; views_saturated?: number; views_saturated_deepest?: number; places_found?: number; places_estimated?: number; coverage?: number; [k: string]: unknown }
/** Why a query failed (decision 25); `type` is one of the executor's typed errors. */
export interface QueryError { query: string; error: { type: string; message: string } }

export type RequestState<R = Record<string, unknown>> =
  | { id: string; status: 'Pending'; progress?: Omit<Progress, 'elapsedMs'>; expired?: boolean }
  | { id: string; status: 'Success'; data: R[][]; errors: QueryError[]; areas?: AreaCoverage[] }
  | { id: string; status: 'Failure'; data: []; errors: QueryError[]; reason: string | null };
export type Result<R = Record<string, unknown>> = Exclude<RequestState<R>, { status: 'Pending' }>;

export interface WaitOptions {
  onProgress?: (p: Progress) => void;
  signal?: AbortSignal;
  /** First poll interval; it grows by half each poll up to `maxPollMs`, and resets when progress moves. */
  pollMs?: number;
  maxPollMs?: number;
}

export class TrawlError extends Error {
  constructor(readonly status: number, message: string, readonly body?: unknown) { super(message); this.name = 'TrawlError'; }
}

export interface ClientOptions {
  /** Default: the TRAWL_API_KEY environment variable (in Node). */
  apiKey?: string;
  /** Default: TRAWL_URL, else http://127.0.0.1:8080. */
  baseUrl?: string;
  /** How many times a 429 or 503 is retried after its Retry-After (default 8). */
  retries?: number;
  fetch?: typeof fetch;
}

const sleep = (ms: number, signal?: AbortSignal) => new Promise<void>((resolve, reject) => {
  if (signal?.aborted) return reject(signal.reason);
  const t = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve(); }, ms);
  const onAbort = () => { clearTimeout(t); reject(signal!.reason); };
  signal?.addEventListener('abort', onAbort, { once: true });
});

/** `errors` (decision 25), or the older `failed_queries` whose error is a plain message. */
function errorsOf(body: Record<string, unknown>): QueryError[] {
  const list = (body.errors ?? body.failed_queries) as { query: string; error: unknown }[] | undefined;
  if (!Array.isArray(list)) return [];
  return list.map((e) => ({ query: e.query, error: typeof e.error === 'string' ? { type: 'unknown', message: e.error } : e.error as QueryError['error'] }));
}

export class TrawlClient {
  readonly baseUrl: string;
  private readonly apiKey: string;
  private readonly retries: number;
  private readonly fetchImpl: typeof fetch;

  constructor(o: ClientOptions = {}) {
    // The same variables as the command-line client; a browser has no process and passes both.
    const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
    this.baseUrl = (o.baseUrl ?? (env.TRAWL_URL || 'http://127.0.0.1:8080')).replace(/\/+$/, '');
    const apiKey = o.apiKey ?? env.TRAWL_API_KEY;
    if (apiKey === undefined) throw new TrawlError(0, 'give apiKey or set TRAWL_API_KEY');
    this.apiKey = apiKey;
    this.retries = o.retries ?? 8;
    // Called unbound: a browser's fetch throws "Illegal invocation" when called as another object's method.
    this.fetchImpl = o.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** One call with the key; 429/503 wait for Retry-After and retry; other errors throw TrawlError. */
  async call(method: string, path: string, o: { query?: Record<string, unknown>; body?: unknown; signal?: AbortSignal } = {}): Promise<Response> {
    const url = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(o.query ?? {})) {
      if (v === undefined || v === null) continue;
      for (const x of Array.isArray(v) ? v : [v]) url.searchParams.append(k, String(x));
    }
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await this.fetchImpl(url, {
          method, signal: o.signal,
          headers: { 'x-api-key': this.apiKey, ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}) },
          body: o.body !== undefined ? JSON.stringify(o.body) : undefined,
        });
      } catch (e) {
        // A kept-alive connection the server closed just as it was reused: a GET or DELETE is safe to send again.
        const code = (e as { cause?: { code?: string } }).cause?.code;
        if (method !== 'POST' && attempt < this.retries && (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET')) continue;
        throw e;
      }
      if ((res.status === 429 || res.status === 503) && attempt < this.retries) {
        const after = Number(res.headers.get('retry-after'));
        await res.body?.cancel();
        await sleep((Number.isFinite(after) && after > 0 ? after * 1000 : 500 * 2 ** attempt), o.signal);
        continue;
      }
      if (res.status >= 400) {
        const text = await res.text();
        let body: unknown = text;
        try { body = JSON.parse(text); } catch { /* not JSON */ }
        const message = (body as { errorMessage?: string })?.errorMessage ?? `${res.status} ${res.statusText}`;
        throw new TrawlError(res.status, message, body);
      }
      return res;
    }
  }

  async json<T>(method: string, path: string, o: { query?: Record<string, unknown>; body?: unknown; signal?: AbortSignal } = {}): Promise<T> {
    return (await this.call(method, path, o)).json() as Promise<T>;
  }

  /** Submits asynchronously; the answer names the request to wait for. */
  async submit<P extends DataPath>(endpoint: P, queries: string[], params: ParamsOf<P> = {} as ParamsOf<P>, signal?: AbortSignal) {
    return this.json<{ id: string; status: string; results_location?: string }>('GET', endpoint, { query: { ...params, query: queries, async: true }, signal });
  }

  /** The request's state now: Pending (with progress), Success (data), or Failure (a 204: no body). */
  async state<R = Record<string, unknown>>(id: string, o: { flat?: boolean; convertFileResult?: boolean; signal?: AbortSignal } = {}): Promise<RequestState<R>> {
    const res = await this.call('GET', `/requests/${encodeURIComponent(id)}`, { query: { flat: o.flat, convertFileResult: o.convertFileResult }, signal: o.signal });
    if (res.status === 204) return { id, status: 'Failure', data: [], errors: [], reason: res.headers.get('x-request-error') };
    const body = await res.json() as Record<string, unknown>;
    if (body.status === 'Success') return { id, status: 'Success', data: body.data as R[][], errors: errorsOf(body), ...(Array.isArray(body.areas) ? { areas: body.areas as AreaCoverage[] } : {}) };
    if (body.status === 'Failure') return { id, status: 'Failure', data: [], errors: errorsOf(body), reason: res.headers.get('x-request-error') };
    return { id, status: 'Pending', progress: body.progress as Omit<Progress, 'elapsedMs'> | undefined, expired: body.expired === true };
  }

  /** Polls until the request ends; an expired result is an error (its data is gone). */
  async wait<R = Record<string, unknown>>(id: string, o: WaitOptions = {}): Promise<Result<R>> {
    const started = Date.now();
    const first = o.pollMs ?? 250;
    let delay = first;
    let lastDone = -1;
    for (;;) {
      const s = await this.state<R>(id, { signal: o.signal });
      if (s.status !== 'Pending') {
        if (s.status === 'Success' && o.onProgress) {
          const n = s.data.length;
          o.onProgress({ queries_total: n, queries_done: n, records: s.data.reduce((a, q) => a + (Array.isArray(q) ? q.length : 1), 0), elapsedMs: Date.now() - started });
        }
        return s;
      }
      if (s.expired) throw new TrawlError(410, `request ${id} ended more than 4 hours ago: its results expired`);
      if (s.progress) {
        o.onProgress?.({ ...s.progress, elapsedMs: Date.now() - started });
        if (s.progress.queries_done !== lastDone) { lastDone = s.progress.queries_done; delay = first; }
      }
      await sleep(delay, o.signal);
      delay = Math.min(Math.round(delay * 1.5), o.maxPollMs ?? 5_000);
    }
  }

  /** Submits and waits: `await client.run('/reverse-geocoding', queries, {}, { onProgress })`. */
  async run<P extends DataPath>(endpoint: P, queries: string[], params: ParamsOf<P> = {} as ParamsOf<P>, o: WaitOptions = {}): Promise<Result<RecordOf<P>>> {
    const { id } = await this.submit(endpoint, queries, params, o.signal);
    return this.wait<RecordOf<P>>(id, o);
  }

  /** Terminates a request (decision 14); answers the server's confirmation text. */
  async cancel(id: string): Promise<string> { return (await this.call('DELETE', `/requests/${encodeURIComponent(id)}`)).text(); }
  requests(o: { type?: 'running' | 'finished'; skip?: number; pageSize?: number } = {}) { return this.json<HistoryItem[]>('GET', '/requests', { query: o }); }
  balance() { return this.json<Balance>('GET', '/profile/balance'); }
  tasks(o: { query?: string; lastId?: string; pageSize?: number } = {}) { return this.json<{ tasks: Task[]; has_more: boolean }>('GET', '/tasks', { query: o }); }
  createTask(body: TaskBody) { return this.json<{ id: string }>('POST', '/tasks', { body }); }
  /** One task (a FAILURE says why in `results[0].error`). */
  task(id: string) { return this.json<Task>('GET', `/tasks/${encodeURIComponent(id)}`); }
  keys() { return this.json<ApiKeyItem[]>('GET', '/profile/keys'); }
  createKey() { return this.json<{ id: string; api_key: string; prefix: string; created: number }>('POST', '/profile/keys'); }
  revokeKey(id: string) { return this.json<{ revoked: string }>('DELETE', `/profile/keys/${encodeURIComponent(id)}`); }
  usage(days = 30) { return this.json<Usage>('GET', '/profile/usage', { query: { days } }); }
  prices() { return this.json<PriceList>('GET', '/profile/prices'); }
  webhookCalls() { return this.json<{ status: string; date: number }[]>('GET', '/webhook-calls'); }
  monitors(o: { lastId?: string; pageSize?: number } = {}) { return this.json<{ monitors: Monitor[]; has_more: boolean }>('GET', '/monitors', { query: o }); }
  monitor(id: string) { return this.json<Monitor>('GET', `/monitors/${encodeURIComponent(id)}`); }
  createMonitor(body: MonitorBody) { return this.json<Monitor>('POST', '/monitors', { body }); }
  /** Pauses (`{status: 'paused'}`), resumes (`{status: 'active'}`) or changes a monitor. */
  updateMonitor(id: string, patch: MonitorPatch) { return this.json<Monitor>('PATCH', `/monitors/${encodeURIComponent(id)}`, { body: patch }); }
  async deleteMonitor(id: string): Promise<string> { return (await this.call('DELETE', `/monitors/${encodeURIComponent(id)}`)).text(); }
  monitorRuns(id: string, o: { before?: number; pageSize?: number } = {}) { return this.json<{ runs: MonitorRun[]; has_more: boolean }>('GET', `/monitors/${encodeURIComponent(id)}/runs`, { query: o }); }
  /** One page of a monitor's changes, oldest first; `next_cursor` reads the next. */
  monitorChanges(id: string, o: { cursor?: string; kind?: string; from?: number; to?: number; pageSize?: number } = {}) {
    return this.json<{ changes: MonitorChange[]; next_cursor: string | null; has_more: boolean }>('GET', `/monitors/${encodeURIComponent(id)}/changes`, { query: o });
  }

  /** The file of a UI task's request, once written (its link appears when the task ends). */
  async taskFile(id: string, o: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<Response> {
    const end = Date.now() + (o.timeoutMs ?? 60_000);
    for (let delay = 100; ; delay = Math.min(delay * 2, 2_000)) {
      const s = await this.state<string>(id, { convertFileResult: false, signal: o.signal });
      const link = s.status === 'Success' ? (s.data as unknown as (string | null)[])[0] : null;
      if (typeof link === 'string') return this.call('GET', new URL(link).pathname, { signal: o.signal });
      if (s.status === 'Failure') throw new TrawlError(204, `request ${id} ended in Failure${s.reason ? `: ${s.reason}` : ''}`);
      if (Date.now() > end) throw new TrawlError(504, `request ${id} has no file yet`);
      await sleep(delay, o.signal);
    }
  }

  /** One business by its os_id (or a scraped place's place_id); a 404 throws TrawlError. */
  business(id: string, fields?: string[]) {
    return this.json<Business>('GET', `/businesses/${encodeURIComponent(id)}`, { query: fields?.length ? { fields: fields.join(',') } : {} });
  }

  /** Every business matching the body, page after page (cursor pagination). */
  async *businesses(body: BusinessesBody = {}): AsyncGenerator<Business> {
    let cursor: string | null | undefined = body.cursor;
    do {
      const page = await this.json<{ items: Business[]; next_cursor: string | null; has_more: boolean }>('POST', '/businesses', { body: { ...body, cursor } });
      yield* page.items;
      cursor = page.has_more ? page.next_cursor : null;
    } while (cursor);
  }
}
