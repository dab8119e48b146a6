/**
 * What `GET /requests/{id}` shows (interface 4.6, decisions 7-10): running → Pending with progress;
 * ended more than the retention ago → Pending with `expired: true`; Failure → 204; Success → the
 * data, streamed. Another account's request is indistinguishable from a missing one (decision 8).
 *
 * @example
 *   const v = await requestView(ctx, account.id, id, { flat: false });
 *   if (v.kind === 'success') for await (const s of v.body) res.write(s);
 */
import { searchesAreas } from '../contract/query-area.ts';
import type { AppContext } from './context.ts';
import type { QueryResult, RequestRow } from '../store/contract.ts';
import { AppError } from './errors.ts';
import { areaProgressOf } from '../sources/maps-search/cover.ts';
import type { StepState } from '../engine/steps.ts';
import { dataChunks, reasonOf, type QueryArea, type QueryError, type ShapeOptions } from '../delivery/shape.ts';
import { splitNote } from '../engine/note.ts';
import { yieldEvery } from '../delivery/yield.ts';
import { selectionOf } from '../engine/selection.ts';

export type RequestView =
  | { kind: 'pending'; body: Record<string, unknown> }
  | { kind: 'failure'; id: string; errors(max?: number): Promise<QueryError[]> }
  | { kind: 'success'; row: RequestRow; body: AsyncIterable<string | Buffer> };

export async function ownRequest(ctx: AppContext, accountId: string, id: string): Promise<RequestRow> {
  const r = id.length <= 100 ? await ctx.store.getRequest(id) : null;
  if (!r || r.accountId !== accountId) throw new AppError(404, `no request ${id.slice(0, 100)}`);
  return r;
}

const FIRST_PAGE = 20;

/** The request with its first results when the store can give both in one round trip. */
async function ownRequestWithResults(ctx: AppContext, accountId: string, id: string): Promise<{ row: RequestRow; first?: QueryResult[] }> {
  if (!ctx.store.getRequestWithResults) return { row: await ownRequest(ctx, accountId, id) };
  const hit = id.length <= 100 ? await ctx.store.getRequestWithResults(id, FIRST_PAGE) : null;
  if (!hit || hit.row.accountId !== accountId) throw new AppError(404, `no request ${id.slice(0, 100)}`);
  return hit;
}

/** All results, starting from a prefetched first page when there is one. */
async function* resultsOf(ctx: AppContext, id: string, first?: QueryResult[]): AsyncGenerator<QueryResult> {
  if (!first) return yield* ctx.store.readResults(id);
  yield* first;
  // A streamed query comes as several parts: the page is full when it held FIRST_PAGE queries.
  if (new Set(first.map((q) => q.queryIndex)).size === FIRST_PAGE) yield* ctx.store.readResults(id, first[first.length - 1].queryIndex);
}

export function resultsLocation(ctx: AppContext, id: string): string {
  return `${ctx.settings.baseUrl}/requests/${id}`;
}

export function isExpired(ctx: AppContext, r: RequestRow): boolean {
  return r.finishedAt !== null && ctx.now() - r.finishedAt >= ctx.settings.retentionMs;
}

export function viewOf(ctx: AppContext, r: RequestRow, o: ShapeOptions & { fileLinkOnly?: string | null; first?: QueryResult[] }): RequestView {
  if (r.finishedAt === null) {
    return { kind: 'pending', body: { id: r.id, status: 'Pending', progress: { queries_total: r.queriesTotal, queries_done: r.queriesDone, records: r.records } } };
  }
  if (isExpired(ctx, r)) return { kind: 'pending', body: { id: r.id, status: 'Pending', expired: true } };
  // A cancelled request keeps what its finished queries found and were billed for: a partial result
  // (status Failure, `cancelled: true`, the queries that ran), not a bare 204 (issue 28).
  if (r.status === 'Failure' && !(r.cancelled && r.records > 0)) return { kind: 'failure', id: r.id, errors: (max) => failedQueries(ctx, r, max) };
  return { kind: 'success', row: r, body: yieldEvery(successBody(ctx, r, o), ctx.settings.streamYieldChars) };
}

/**
 * Why a request failed: its failed queries with their reasons (at most `max`), in query order; a
 * cancelled request whose queries never ran says it was cancelled.
 *
 * @example (await failedQueries(ctx, row, 1))[0] // { query: 'coffee athens', error: { type: 'network', message: '...' } }
 */
export async function failedQueries(ctx: AppContext, r: RequestRow, max = Infinity): Promise<QueryError[]> {
  const out: QueryError[] = [];
  if (max <= 0) return out;
  for await (const q of ctx.store.readResults(r.id)) {
    const reason = q.more ? null : splitNote(q.error).reason;
    if (reason) out.push({ query: q.query, error: reasonOf(reason) });
    if (out.length >= max) break;
  }
  if (!out.length && r.cancelled) out.push({ query: '', error: { type: 'cancelled', message: 'the request was cancelled (DELETE /requests/{id})' } });
  return out;
}

async function* successBody(ctx: AppContext, r: RequestRow, o: ShapeOptions & { fileLinkOnly?: string | null; first?: QueryResult[] }): AsyncGenerator<string | Buffer> {
  yield `{"id":${JSON.stringify(r.id)},"status":${JSON.stringify(r.status)},${r.cancelled ? '"cancelled":true,' : ''}"data":`;
  if (o.fileLinkOnly) {
    yield JSON.stringify([o.fileLinkOnly]);
    yield '}';
    return;
  }
  const errors: QueryError[] = [];
  // Fields given at submit time shape the result unless the read names its own.
  const submitted = Array.isArray(r.params.fields) ? (r.params.fields as string[]) : undefined;
  const shape: ShapeOptions = { flat: o.flat, fields: o.fields ?? submitted, dropDuplicates: r.dropDuplicates || o.dropDuplicates,
    dropEmailDuplicates: selectionOf(r.params)?.dropEmailDuplicates };
  const areas: QueryArea[] = [];
  const stubs = { retried: 0, served: 0 };
  yield* dataChunks(resultsOf(ctx, r.id, o.first), shape, errors, areas, stubs);
  // Queries that failed are named with their reason, so an empty array is never mistaken for
  // "found nothing" (and a query that ended early says so beside its records).
  if (r.cancelled) errors.push({ query: '', error: { type: 'cancelled', message: 'the request was cancelled (DELETE /requests/{id}); data holds the queries that finished before' } });
  if (errors.length) yield `,"errors":${JSON.stringify(errors)}`;
  // Extension: how complete each area query believes it is (docs/areas.md).
  if (areas.length) yield `,"areas":${JSON.stringify(areas)}`;
  // Extension: stub answers asked again from another identity, and records served as stubs
  // (docs/sources-maps-2026.md); absent when the request met none.
  if (stubs.retried || stubs.served) yield `,"metadata":${JSON.stringify({ stubs_retried: stubs.retried, stubs_served: stubs.served })}`;
  yield '}';
}

export async function requestView(ctx: AppContext, accountId: string, id: string, o: ShapeOptions & { convertFileResult?: boolean }): Promise<RequestView> {
  const { row: r, first } = await ownRequestWithResults(ctx, accountId, id);
  let fileLinkOnly: string | null = null;
  if (r.taskId && o.convertFileResult === false && r.finishedAt !== null) {
    const t = await ctx.store.getTask(r.taskId);
    fileLinkOnly = t?.results.find((x) => x.file_url)?.file_url ?? null;
  }
  const view = viewOf(ctx, r, { ...o, fileLinkOnly, first });
  if (view.kind === 'pending' && view.body.progress && searchesAreas(r.params)) {
    const area = await areaProgress(ctx, r);
    if (area) (view.body.progress as Record<string, unknown>).area = area;
  }
  return view;
}

/** Most running queries of one request whose checkpoints an area progress reads. */
const AREA_PROGRESS_QUERIES = 50;

/**
 * The covering of a running request's area queries (extension `progress.area`), summed over the
 * checkpoints of its unfinished queries: each holds its plan in its one pending step.
 */
async function areaProgress(ctx: AppContext, r: RequestRow): Promise<Record<string, unknown> | null> {
  const sum = { views_planned: 0, views_done: 0, views_saturated: 0, places_found: 0, coverage: 1, planned: [] as number[][] };
  let any = false;
  for (let i = 0; i < Math.min(r.queriesTotal, AREA_PROGRESS_QUERIES); i++) {
    const saved = await ctx.store.loadProgress(`${r.id}:${i}`);
    if (!saved) continue;
    const p = areaProgressOf((JSON.parse(saved.state) as StepState).pending?.[0]?.state);
    if (!p) continue;
    any = true;
    sum.views_planned += p.views_planned;
    sum.views_done += p.views_done;
    sum.views_saturated += p.views_saturated;
    sum.places_found += p.places_found;
    sum.coverage = Math.min(sum.coverage, p.coverage);
    sum.planned.push(...p.planned.slice(0, Math.max(0, 200 - sum.planned.length)));
  }
  return any ? sum : null;
}

/** A synchronous wait: how it ends, and when it gives up. */
interface Wait { deadline: number; finish(r: RequestRow | null, results?: QueryResult[]): void }

/**
 * The synchronous waits of one context, polled together: another process may run the workers, so
 * the store is the authority, read every 250 ms for all the waits at once (one read of the ended
 * rows). A read per wait was 2-3 round trips a query on PostgreSQL, more than any other statement
 * of a map search (issue 37). The ends this process's workers announce reach the waits through one
 * listener, by id: with a listener a wait, each end called every wait's, and each wait's end searched
 * the list for its own to take it off (issue 37, session 16).
 */
class EndPoll {
  private readonly waits = new Map<string, Set<Wait>>();
  private timer: NodeJS.Timeout | null = null;
  private busy = false;
  private readonly onFinished = (r: RequestRow, results?: QueryResult[]) => {
    const set = this.waits.get(r.id);
    if (set) for (const w of [...set]) w.finish(r, results);
  };

  constructor(private readonly ctx: AppContext) {}

  add(id: string, w: Wait): void {
    const set = this.waits.get(id) ?? new Set();
    this.waits.set(id, set.add(w));
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), 250);
    this.ctx.events.on('finished', this.onFinished);
  }

  remove(id: string, w: Wait): void {
    const set = this.waits.get(id);
    if (!set?.delete(w) || set.size) return;
    this.waits.delete(id);
    if (this.waits.size || !this.timer) return;
    clearInterval(this.timer);
    this.timer = null;
    this.ctx.events.off('finished', this.onFinished);
  }

  private async tick(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const ended = await this.ctx.store.endedRequests([...this.waits.keys()]);
      for (const r of ended) for (const w of [...this.waits.get(r.id) ?? []]) w.finish(r);
    } catch { /* store briefly unavailable: keep waiting */ } finally {
      this.busy = false;
    }
    const now = this.ctx.now();
    for (const set of [...this.waits.values()]) for (const w of [...set]) if (now >= w.deadline) w.finish(null);
  }
}

const endPolls = new WeakMap<AppContext, EndPoll>();

/**
 * Waits until a request just submitted ends (sync delivery, decision 13); resolves with the row, or null at the
 * deadline. `results`: its results as stored, when the worker that ended it in this process held
 * them all (a one-query request): answering from them spares reading back and expanding the
 * records just written (issue 15), and the answer is the same bytes GET /requests/{id} sends.
 */
export async function waitForEnd(ctx: AppContext, id: string, timeoutMs: number): Promise<{ row: RequestRow; results?: QueryResult[] } | null> {
  let poll = endPolls.get(ctx);
  if (!poll) endPolls.set(ctx, (poll = new EndPoll(ctx)));
  const p = poll;
  return new Promise((resolve) => {
    let done = false;
    const wait: Wait = {
      deadline: ctx.now() + timeoutMs,
      finish: (r, results) => {
        if (done) return;
        done = true;
        p.remove(id, wait);
        resolve(r && { row: r, results });
      },
    };
    // This process's workers announce the end (the poll's one listener); another process may run the
    // workers: the poll reads the store for every wait at once.
    p.add(id, wait);
    // No read at once: the caller has just submitted the request, and this process's workers cannot
    // end it before the poll's listener is on (its first step waits for I/O); another process's are
    // seen by the poll. A read here was one request row (and its parameters parsed) a query (issue 37).
  });
}
