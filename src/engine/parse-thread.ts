/**
 * Web adapters' parses on parse threads (issue 15): on a map search the body's JSON.parse and the
 * place mapper were 30 % of the API thread's CPU, and the thread also answers HTTP, runs the queue
 * and writes the store. PARSE_THREADS threads (default: one per core beyond the first, at least
 * one; 0 = on the calling thread, as before) take the step and the response body and hand back the
 * ParseResult by structured clone: on the 191 KB map search answer the parse is 1.2 ms, handing
 * over the body 0.01 ms (shared memory, ./body-slots.ts) and cloning the 20 records back 0.18 ms of
 * this thread's time (the thread pays 0.28 ms to read the body and 0.23 ms to send the records:
 * the crossing costs CPU, it only moves the parse). A body
 * under INLINE_CHARS parses here (crossing would cost more than it saves), and so does any body
 * while every parse thread already holds JOBS_PER_THREAD parses: a burst beyond what the threads
 * clear in about 10 ms is shared with this thread instead of queueing there.
 *
 * A body up to HERE_MAX_CHARS also parses here while this thread's event loop was busy less than
 * HERE_BUSY of the last quarter second (../ops/busy-share.ts), issue 37: with a body decoded here the
 * crossing cost about 0.5 ms of CPU a map search in all threads (session 13; reading the body there,
 * cloning the records back and reading them here), and it buys nothing while this thread has room.
 * Since fetched bodies cross as their bytes and decode there (session 18), a page moved here saves
 * the thread about what it costs this one (session 19, docs/performance/service.md): the rule stays
 * for a thread with room, and a busier one is not given more. A
 * parse here holds one of the runner's CPU slots (./cpu-slots.ts), as any parse here does, so a
 * `/health` probe waits behind at most two of them (about 1.2 ms each for a 191 KB page); a larger
 * body, or a thread past its share, crosses as before.
 *
 * A query whose adapter says its work is heavy (`offThread`: an area's covering) has its plan
 * (`plan`) and every parse run on a thread whatever the body's size, waiting for a thread with room
 * rather than running here: the first covering of an area reads its shape and the density prior
 * and builds the root views (0.7-1.4 s at load 7-10, docs/performance/areas.md), and each page
 * moves the planner on over that shape.
 *
 * Only adapters of the thread's registry (the served one, or `module`'s: tests) run there: the
 * thread loads the adapter by endpoint (./parse-job.ts).
 * A parse error comes back with its type (SourceError rebuilt), as thrown here; a thread that dies
 * fails the queries it was parsing, as any parse error does. The query's abort signal is not
 * consulted by a parse, here or there.
 *
 * @example
 *   const parse = parseOnThreads(parseThreads());  // null when PARSE_THREADS=0
 *   const out = await parse!('/maps/search', adapter, step, response, ctx);
 */
import { availableParallelism } from 'node:os';
import type { FetchedResponse, ParseResult, QueryContext, Step, WebAdapter } from '../sources/_kit/adapter.ts';
import { sourceErrorFrom } from '../sources/_kit/errors.ts';
import { ThreadPool } from '../ops/thread-pool.ts';
import type { ParseJob, PlanJob } from './parse-job.ts';
import { BodySlots } from './body-slots.ts';
import { undecoded } from '../fetch/lazy-body.ts';
import { BusyShare } from '../ops/busy-share.ts';

/** A body shorter than this parses on the calling thread. */
export const INLINE_CHARS = 16 * 1024;
/** Parses given to one thread at once (one running, the rest queued there, so it never waits for
 *  this thread between two): about 10 ms of a map search's parses. Beyond that a parse runs here. */
export const JOBS_PER_THREAD = 8;
/** The largest body that parses here while this thread has room: a 256 K-character page takes about
 *  1.6 ms to parse, the most a probe should wait behind one parse. */
export const HERE_MAX_CHARS = 256 * 1024;
/** This thread's busy share below which such a body parses here: its loop stays idle 30 % of the
 *  time for answering, and past it the parses move to the threads before this thread bounds throughput. */
export const HERE_BUSY = 0.7;

/** PARSE_THREADS, or one per core beyond the first (at least one). */
export function parseThreads(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.PARSE_THREADS ?? Math.max(1, availableParallelism() - 1));
  return Number.isInteger(n) && n >= 0 ? n : 1;
}

/** `here` wraps a parse that runs on this thread after all (a small body, every parse thread busy):
 *  the runner's CPU slots (./cpu-slots.ts); a parse on a thread holds none. */
export type ParseStep = (endpoint: string, adapter: WebAdapter, step: Step, response: FetchedResponse, ctx: QueryContext,
  here?: (parse: () => ParseResult) => Promise<ParseResult>) => ParseResult | Promise<ParseResult>;

/** A query's first steps, perhaps planned on a parse thread (`offThread` adapters). */
export type PlanStep = (endpoint: string, adapter: WebAdapter, ctx: QueryContext) => Step[] | Promise<Step[]>;

/** The parse (and `plan`) of `threads` parse threads (started on first use), or null for 0 threads.
 *  `busy`: this thread's busy share lately (tests; default measured, ../ops/busy-share.ts);
 *  `module`: another job module (./parse-job.ts `jobOf` over another registry: tests). */
export function parseOnThreads(threads: number, o: { busy?: () => number; module?: URL } = {}): (ParseStep & { plan: PlanStep; close(): Promise<void> }) | null {
  if (!(threads > 0)) return null;
  let pool: ThreadPool | null = null;
  const threadPool = () => (pool ??= new ThreadPool(o.module ?? new URL('./parse-job.ts', import.meta.url), threads, JOBS_PER_THREAD));
  const slots = new BodySlots(threads * JOBS_PER_THREAD);
  let share: BusyShare | null = null;
  const busy = o.busy ?? (() => (share ??= new BusyShare()).now());
  const plan: PlanStep = async (endpoint, adapter, ctx) => {
    if (!adapter.offThread?.(ctx)) return adapter.plan(ctx);
    const job: PlanJob = { kind: 'plan', endpoint, ctx: { query: ctx.query, params: ctx.params } };
    try {
      return await threadPool().run<Step[]>(job);
    } catch (e) {
      throw sourceErrorFrom(e);
    }
  };
  const parse = async (endpoint: string, adapter: WebAdapter, step: Step, response: FetchedResponse, ctx: QueryContext,
    here: (parse: () => ParseResult) => Promise<ParseResult> = async (p) => p()): Promise<ParseResult> => {
    const tp = threadPool();
    // A heavy query's parse waits for a thread (the pool queues it) rather than running here.
    const heavy = adapter.offThread?.(ctx) === true;
    // A body not decoded yet crosses as its bytes; their count stands in for its characters here.
    const raw = undecoded(response);
    const chars = raw ? raw.bytes.length : response.body.length;
    if (!heavy && (chars < INLINE_CHARS || (chars <= HERE_MAX_CHARS && busy() < HERE_BUSY) || !tp.hasRoom())) return here(() => adapter.parse(step, response, ctx));
    const shared = raw ? slots.lendBytes(raw) : slots.lend(response.body);
    const rest = { status: response.status, url: response.url, headers: response.headers };
    const job: ParseJob = { endpoint, step, response: shared ? rest : response, shared: shared ?? undefined, ctx: { query: ctx.query, params: ctx.params } };
    try {
      return await tp.run<ParseResult>(job);
    } catch (e) {
      throw sourceErrorFrom(e);
    } finally {
      if (shared) slots.give(shared);
    }
  };
  return Object.assign(parse, { plan, close: async () => { await pool?.close(); } });
}
