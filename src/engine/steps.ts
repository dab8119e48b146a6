/**
 * The steps of one web query, durable: after every step the runner checkpoints the query in the
 * store (the steps still to run, counters, and the step's records as the query's next chunk), so a
 * retry or a worker that takes over a dead worker's lease resumes from the last finished step and
 * never runs `plan` or a finished page again.
 *
 * Two ways to keep records:
 * - streamed: an adapter without `finish` in a request without `totalLimit`/`dropDuplicates`. Each
 *   step's records are prepared (no-result markers dropped, enrichments, `query` field) and saved as
 *   a chunk that is part of the result; the worker holds one page at a time.
 * - buffered: an adapter that merges at the end (`finish`, e.g. map cells deduplicated), or a request
 *   whose shaping needs the whole query. Each step's raw records are still saved as a chunk, read back
 *   on resume; the completion replaces them with the merged result.
 *
 * Adapters without `finish` also get the query's `limit` applied (the last chunk cut to it) and, on
 * paged endpoints, `next_page_cursor` on every record (src/engine/cursor.ts).
 *
 * @example
 *   const { state, records } = await runSteps({ store, owner, item, adapter, fetchStep, signal, ... });
 */
import type { Store, WorkItem } from '../store/contract.ts';
import type { FetchedResponse, ParseResult, Step, WebAdapter } from '../sources/_kit/adapter.ts';
import { SourceError, isSourceError } from '../sources/_kit/errors.ts';
import { cursorSigner, CursorError, type CursorSigner } from './cursor.ts';
import { budgetNote } from './budget.ts';
import { isStoreUnavailable } from '../store/unavailable.ts';
import { withCursor } from './record-fields.ts';
import { CREDIT_NOTE, type Purse } from '../billing/purse.ts';
import { tallyStep, type TallyState } from './tally.ts';
import { stubRetried, stubsServed, type StubState } from './stubs.ts';
import { mergeLearned, type Learned } from '../sources/_kit/learned.ts';

type Rec = Record<string, unknown>;

/** What a checkpoint holds (JSON in the store's item_progress.state). */
export interface StepState {
  /** Steps still to run, the first one next. */
  pending: Step[];
  /** Records of pending[0] already delivered (a resume inside a chunk cut by a limit). */
  skip: number;
  /** Steps run, records kept, units counted (streamed) so far, over every attempt. */
  steps: number;
  records: number;
  units: number;
  /** Set when the query ended early with what it had (step budget). */
  note?: string;
  /** The adapter's figures about the whole query (ParseResult.summary), the last ones given. */
  summary?: Record<string, unknown>;
  /** Paged lists still open and the shortfalls found (./tally.ts): the query's reason when it ends. */
  tally?: TallyState;
  /** Stub answers asked again and served (./stubs.ts). */
  stubs?: Partial<StubState>;
  /** What the query's steps proved of the site's view cap (ParseResult.learned), merged. */
  learned?: Learned;
}

/** The item is leased by another worker now (this one was too slow): stop, write nothing. */
export class LeaseLost extends Error {}

/** The store was unreachable while checkpointing: the item must wait for its lease, not fail. (An
 *  adapter's own ECONNREFUSED looks the same as a store's, hence the wrapper.) */
export class CheckpointOutage extends Error {
  constructor(readonly error: unknown) { super('the store is unavailable'); }
}

/** Runs a store call; an outage comes out as CheckpointOutage (the runner's own store calls too). */
export async function storeCall<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    throw isStoreUnavailable(e) ? new CheckpointOutage(e) : e;
  }
}

export interface StepRun {
  store: Store;
  owner: string;
  item: WorkItem;
  adapter: WebAdapter;
  fetch(step: Step): Promise<FetchedResponse>;
  /** The adapter's parse of a fetched step, perhaps on a parse thread (./parse-thread.ts); default
   *  `adapter.parse` here. */
  parse?(step: Step, response: FetchedResponse): ParseResult | Promise<ParseResult>;
  /** The adapter's plan of the query, perhaps on a parse thread (./parse-thread.ts); default
   *  `adapter.plan` here. */
  plan?(): Step[] | Promise<Step[]>;
  /** Steps this query may take (src/engine/budget.ts). */
  budget: number;
  /** Records the query asks for; applied to adapters without `finish`. */
  limit?: number;
  streamed: boolean;
  /** The endpoint is paged: records carry next_page_cursor. */
  paged: boolean;
  /** Streamed chunks: records as they are stored (markers dropped, enriched, with `query`), each
   *  with `cursor` as its next_page_cursor when one is given (paged endpoints; null on the last page). */
  prepare(records: Rec[], cursor?: string | null): Promise<Rec[]>;
  /** Streamed chunks: their billable units. */
  units(records: Rec[]): number;
  /** What the account can still pay for (src/billing/purse.ts): the query stops there, noted. */
  purse?: Purse;
  now(): number;
  /** Called after each checkpoint while steps remain: where a slot is time-sliced (./lending.ts). It
   *  may wait (the slot lent out) or throw (the item given back; its checkpoint holds everything). */
  between?(): Promise<void>;
}

/** Where the query starts: its checkpoint, else the `cursor` it was given, else the adapter's plan. */
async function startOf(r: StepRun, buffered: Rec[]): Promise<StepState> {
  // Not read when the claim said there is none (a first run on PostgreSQL: a round trip a query).
  const saved = r.item.checkpointed === false ? null : await storeCall(() => r.store.loadProgress(r.item.id));
  if (saved) {
    if (!r.streamed) {
      await storeCall(async () => { for await (const chunk of r.store.readChunks(r.item.id)) for (const x of JSON.parse(chunk) as Rec[]) buffered.push(x); });
    }
    return JSON.parse(saved.state) as StepState;
  }
  const fresh = { skip: 0, steps: 0, records: 0, units: 0 };
  const cursor = r.item.params.cursor;
  if (typeof cursor === 'string' && cursor) {
    try {
      const p = (await storeCall(() => cursorSigner(r.store))).verify(cursor);
      // From the middle of its lists: nothing to compare their counts with (./tally.ts).
      if (p.endpoint === r.item.endpoint && p.query === r.item.query) return { ...fresh, pending: p.steps, skip: p.skip, tally: { resumed: true } };
    } catch (e) {
      if (e instanceof CursorError) throw new SourceError('invalid_query', `cursor is refused: ${e.message}`);
      throw e;
    }
  }
  return { ...fresh, pending: r.plan ? await r.plan() : r.adapter.plan({ query: r.item.query, params: r.item.params }) };
}

/**
 * Runs the query's steps to the end (or its limit or budget), checkpointing after each. Returns the
 * final state and, for a buffered query, every raw record (a streamed query's are in the store, but
 * for `last`: the prepared records of a one-step query, never saved as a chunk).
 */
export async function runSteps(r: StepRun): Promise<{ state: StepState; records: Rec[]; last?: Rec[] }> {
  const records: Rec[] = [];
  const state = await startOf(r, records);
  let first = state.steps === 0;
  const ctx = { query: r.item.query, params: r.item.params };
  const cut = !r.adapter.finish && r.limit !== undefined ? r.limit : Infinity;
  let signer: CursorSigner | undefined;
  // Records the account can still pay for, asked before each step (a page is not fetched for
  // nothing) and applied to the step's records like a limit.
  const room = async () => (r.purse ? r.purse.room({ records: state.records, units: r.streamed ? state.units : undefined }) : Infinity);
  let broke = false;
  // A step whose records the limit cut, but of which prepare kept fewer than the limit still wants (a
  // task's selection left some out): its parse is used again for the rest of its records, not refetched.
  let again: { step: Step; out: ParseResult } | undefined;
  while (state.pending.length && state.records < cut) {
    const step = state.pending[0];
    const reuse = again?.step === step;
    if (!reuse && state.steps >= r.budget) {
      state.note = budgetNote(state.steps, state.records);
      break;
    }
    if (await room() <= 0) {
      state.note = CREDIT_NOTE;
      break;
    }
    let out: ParseResult;
    if (reuse) {
      out = again!.out;
    } else {
      const parse = async (s: Step) => { const res = await r.fetch(s); return r.parse ? await r.parse(s, res) : r.adapter.parse(s, res, ctx); };
      out = await parse(step);
      state.steps += 1;
      // A stub answer is asked again once from another identity, and the second answer taken
      // (./stubs.ts); when that ask fails, the first answer is served as the stub it is.
      if (out.stubs?.length && !step.another) {
        stubRetried((state.stubs ??= {}));
        state.steps += 1;
        try {
          out = await parse({ ...step, another: true });
        } catch (e) {
          if (!isSourceError(e)) throw e;
        }
      }
      if (out.stubs?.length) stubsServed((state.stubs ??= {}), out.stubs);
    }
    again = undefined;
    let recs = state.skip ? out.records.slice(state.skip) : out.records;
    if (out.summary) state.summary = out.summary;
    if (out.learned) state.learned = mergeLearned(state.learned, out.learned);
    if (out.tallies?.length && !reuse) tallyStep((state.tally ??= {}), out.tallies);
    const rest = [...state.pending.slice(1), ...(out.next ?? [])];
    // The resume point after this chunk: inside this step when the limit (or the credit) cuts it, else the rest.
    let resume: { steps: Step[]; skip: number } | null = rest.length ? { steps: rest, skip: 0 } : null;
    const want = Math.min(recs.length, cut - state.records);
    const keep = r.purse ? await r.purse.take({ records: state.records, units: r.streamed ? state.units : undefined }, want) : want;
    if (recs.length > keep) {
      broke = keep < want;
      recs = recs.slice(0, keep);
      resume = { steps: state.pending, skip: state.skip + recs.length };
    }
    let cursor: string | null | undefined;
    if (r.paged && !r.adapter.finish && recs.length) {
      signer ??= await storeCall(() => cursorSigner(r.store));
      cursor = resume ? signer.sign({ endpoint: r.item.endpoint, query: r.item.query, ...resume }) : null;
      // A streamed chunk gets it in prepare, where each record is copied once.
      if (!r.streamed) recs = withCursor(recs, cursor);
    }
    let chunk: Rec[] = recs;
    if (r.streamed) {
      chunk = await r.prepare(recs, cursor);
      state.units += r.units(chunk);
    } else {
      for (const x of recs) records.push(x);
    }
    state.records += chunk.length;
    if (broke) state.note = CREDIT_NOTE;
    const cutHere = resume !== null && resume.steps === state.pending;
    if (cutHere && !broke && state.records < cut) {
      // The cut chunk kept fewer records than the limit: the rest of this step comes next.
      state.skip = resume!.skip;
      again = { step, out };
    } else {
      state.pending = resume === null || cutHere ? [] : rest;
      state.skip = 0;
    }
    // A query done in its first step (most searches: no further step, or the limit reached) is not
    // checkpointed: its records go with the completion, in the same transaction (streamed: as `last`;
    // buffered: in `records`, as always). A crash before then re-runs that one step, as a crash before
    // any checkpoint always did.
    if (first && (!state.pending.length || state.records >= cut)) return r.streamed ? { state, records, last: chunk } : { state, records };
    first = false;
    const saved = await storeCall(() => r.store.saveProgress({
      itemId: r.item.id, owner: r.owner, state: JSON.stringify(state), now: r.now(),
      chunk: chunk.length ? { recordsJson: JSON.stringify(chunk), count: chunk.length } : undefined,
    }));
    if (!saved) throw new LeaseLost(`${r.item.id} is leased by another worker now`);
    if (r.between && state.pending.length && state.records < cut) await r.between();
  }
  return { state, records };
}
