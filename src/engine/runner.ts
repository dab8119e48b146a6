/**
 * Runs one work item: the adapter's steps for one query (durable and streamed: src/engine/steps.ts),
 * then completes or fails the item in the store. Retryable source errors go back to the queue with
 * exponential backoff and jitter; anything else ends the query with its error. A heartbeat keeps the
 * lease while a long query runs. Each failed attempt is one `warn` log line, each finished request
 * one `info` line (never a key: reasons pass src/engine/reason.ts).
 *
 * @example
 *   const runner = new Runner({ store, queue, adapters, fetchStep, owner: 'w-1' });
 *   queue.start((item) => runner.run(item), { concurrency: 8, owner: 'w-1', leaseMs: 60_000 });
 */
import { queryWithArea } from '../contract/query-area.ts';
import type { ExtraProduct, FanIn, ItemOutcome, QueryResult, RequestRow, Store, WorkItem } from '../store/contract.ts';
import { isNoResult, type FetchedResponse, type SourceAdapter, type Step } from '../sources/_kit/adapter.ts';
import { enrichmentProducts } from '../enrich/supported.ts';
import { SourceError, isSourceError } from '../sources/_kit/errors.ts';
import type { WorkQueue } from './queue.ts';
import { dedupeKey } from './dedupe.ts';
import { isStoreUnavailable, noteStoreOutage } from '../store/unavailable.ts';
import type { Logger } from '../ops/log.ts';
import { CheckpointOutage, LeaseLost, runSteps, storeCall } from './steps.ts';
import { queryLimit, stepBudget } from './budget.ts';
import { reasonOf } from './reason.ts';
import type { ParseStep, PlanStep } from './parse-thread.ts';
import { CpuSlots } from './cpu-slots.ts';
import { isFinal } from '../fetch/retry.ts';
import { BALANCE_EXHAUSTED, canCharge } from '../billing/credit.ts';
import { withCursor, withQuery, withQueryAndCursor } from './record-fields.ts';
import { selectionTests } from './selection.ts';
import { noteOf } from './note.ts';
import { shortfallNote } from './tally.ts';
import { joinReasons, stubNote } from './stubs.ts';
import { CREDIT_NOTE, Purses, type Purse } from '../billing/purse.ts';
import { GiveBack, type SlotLending } from './lending.ts';
import { encodeRecords } from './encode-records.ts';

type Rec = Record<string, unknown>;

export type FetchStep = (step: Step, sessionKey: string, signal: AbortSignal) => Promise<FetchedResponse>;

export interface RunnerEvents {
  /** A request ended (Success or Failure): tasks and webhooks follow up. `results`: the request's
   *  results as stored, when this worker's completion stored all of them (a one-query request whose
   *  records the store kept whole, FanIn.stored), so a synchronous caller need not read them back.
   *  `deliveries`: false when the store says the end made no webhook delivery (FanIn.deliveries). */
  onRequestFinished?(r: RequestRow, results?: QueryResult[], deliveries?: boolean): void;
  /** `detail`: what the error may tell the operator but not the user (see SourceError.detail). */
  onItem?(e: { endpoint: string; outcome: 'done' | 'retry' | 'failed'; errorType?: string; detail?: string; records: number; ms: number }): void;
}

export interface RunnerOptions extends RunnerEvents {
  store: Store;
  queue: WorkQueue;
  adapterFor(endpoint: string): Promise<SourceAdapter | undefined> | SourceAdapter | undefined;
  fetchStep: FetchStep;
  /** Web adapters' parse, e.g. on parse threads (./parse-thread.ts); default `adapter.parse` here. */
  parseStep?: ParseStep;
  /** Web adapters' plan, e.g. an area's on a parse thread (./parse-thread.ts); default `adapter.plan` here. */
  planStep?: PlanStep;
  /** Queries in their CPU-heavy phases at once (./cpu-slots.ts); 0 or unset: no limit. */
  cpuSlots?: number;
  owner: string;
  leaseMs?: number;
  /** Settings handed to local adapters (resolvers, SMTP port ...). */
  lookupSettings?: Record<string, unknown>;
  /** Steps any query may take (plans that fan out: cells, detail pages); a query's own limit adds one
   *  step per record it asks for (src/engine/budget.ts), so a looping adapter cannot run forever. */
  maxStepsPerQuery?: number;
  /** Endpoints whose records carry next_page_cursor (those declaring a `cursor` parameter). */
  paged?(endpoint: string): boolean;
  /** Failed attempts (warn) and finished requests (info) are logged here. */
  log?: Pick<Logger, 'warn' | 'info'>;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  now?: () => number;
  /** Called when an item ends, to free its fetch session. */
  endSession?(key: string): void;
  /** Post-processing of a query's records (maps enrichments). */
  enrich?(endpoint: string, records: Record<string, unknown>[], params: Record<string, unknown>): Promise<Record<string, unknown>[]>;
  /** Whether `enrich` changes the records of an item with these parameters; when it says no, the
   *  runner does not call it (and copies each streamed record once instead of twice). */
  enriches?(params: Record<string, unknown>): boolean;
  /** After an item's records are stored (this worker's completion applied) and its request's end, if
   *  any, announced: the business database takes the places (src/app/business-capture.ts). `records`
   *  are the query's records as this worker held them, or null when they were streamed to the store in
   *  chunks (then only the store has them all). A failure is logged; the item stays done. */
  afterComplete?(item: WorkItem, records: Rec[] | null): Promise<unknown>;
  /** Time slicing of slots between accounts at step boundaries (./lending.ts); none: an item holds
   *  its slot to its end. */
  lending?: SlotLending;
}

export class Runner {
  private readonly o: Required<Pick<RunnerOptions, 'leaseMs' | 'maxStepsPerQuery' | 'backoffBaseMs' | 'backoffMaxMs' | 'now'>> & RunnerOptions;

  private readonly slots: CpuSlots;

  constructor(o: RunnerOptions) {
    this.o = { leaseMs: 60_000, maxStepsPerQuery: 2_000, backoffBaseMs: 1_000, backoffMaxMs: 120_000, now: Date.now, ...o };
    this.slots = new CpuSlots(o.cpuSlots ?? 0);
  }

  /** Backoff for the n-th failed attempt: base * 4^(n-1), capped, with full jitter on the upper half.
   *  Whole milliseconds: the retry time is stored in an integer column (PostgreSQL refuses a fraction). */
  backoff(attempt: number, hintMs?: number): number {
    const exp = Math.min(this.o.backoffMaxMs, this.o.backoffBaseMs * 4 ** Math.max(0, attempt - 1));
    const jittered = exp / 2 + Math.random() * (exp / 2);
    return Math.ceil(Math.max(jittered, hintMs ?? 0));
  }

  /** Accounts a completion found at their credit limit (src/billing/credit.ts): their next items are
   *  checked against the store first and end at once while the account still cannot pay, so a
   *  1000-query request stops fetching rather than running every query only to be refused. */
  private readonly exhausted = new Set<string>();

  /** What each running query of an account holds unbilled (src/billing/purse.ts). */
  private readonly purses = new Purses();

  /** The purse of one item: the request's unit price (carried by the claimed item; read from the
   *  request only for an item that lacks it) plus its enrichments per record, against the account's
   *  balance plus credit read fresh at each ask (src/billing/purse.ts says when a fit needs none, and
   *  when the first ask answers from what the claim read). */
  private async purseOf(item: WorkItem, extra: ExtraProduct[]): Promise<Purse> {
    const unitPriceMicros = item.unitPriceMicros ?? (await storeCall(() => this.o.store.getRequest(item.requestId)))?.unitPriceMicros ?? 0;
    const store = this.o.store;
    return this.purses.open(item.accountId, item.id, {
      unitPriceMicros,
      extraMicros: extra.reduce((s, e) => s + e.unitPriceMicros, 0),
      claimed: item.payable,
      async available() {
        const a = await storeCall(() => store.getAccount(item.accountId));
        return a && canCharge(a) ? a.balanceMicros + a.creditLimitMicros : 0;
      },
    });
  }

  private async cannotPay(accountId: string): Promise<boolean> {
    if (!this.exhausted.has(accountId)) return false;
    const a = await storeCall(() => this.o.store.getAccount(accountId));
    if (a && canCharge(a)) this.exhausted.delete(accountId);
    return this.exhausted.has(accountId);
  }

  /** `slotFree` (../engine/queue.ts RunItem): called once the item is ended in the store, before the
   *  request's end is announced, so a synchronous caller's next submit finds the slot free while this
   *  run's business capture finishes. */
  async run(given: WorkItem, slotFree?: () => void): Promise<void> {
    // A task's query searched over its own location (src/contract/query-area.ts) runs with that `area`.
    const item = queryWithArea(given);
    const t0 = this.o.now();
    try {
      if (await this.cannotPay(item.accountId)) return await this.refuse(item, t0);
    } catch (e) {
      if (e instanceof CheckpointOutage) return this.handBack(item, e.error, t0);
      throw e;
    }
    const ac = new AbortController();
    const beat = setInterval(() => {
      this.o.store.heartbeat(this.o.owner, [item.id], this.o.now() + this.o.leaseMs).catch(() => {});
    }, Math.max(1_000, this.o.leaseMs / 3));
    beat.unref();
    let storing = false;
    let ended = false;
    // What the run holds besides its queue slot, let go once: at the item's end in the store, or at the run's end.
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(beat);
      this.o.lending?.leave(item.id);
      this.purses.release(item.accountId, item.id);
      this.o.endSession?.(item.id);
    };
    try {
      const { out, records } = await this.outcome(item, ac.signal);
      // Stopped at the credit limit before its first record: nothing to deliver, and an empty query's
      // one unit would pass the limit.
      if (out.count === 0 && out.note?.startsWith(CREDIT_NOTE)) return await this.refuse(item, t0);
      storing = true;
      const fan = await this.slots.run(() => this.o.store.completeItem(out));
      storing = false;
      if (fan.balanceExhausted) this.exhausted.add(item.accountId);
      // Ended in the store (billed, stored): the heartbeat, purse, lending and fetch session are let go,
      // and the queue's slot with them; what is left (the capture) is derived data.
      end();
      slotFree?.();
      // The request's end is announced first: a synchronous caller does not wait for the capture.
      this.after(fan, item);
      this.o.onItem?.(fan.balanceExhausted ? { endpoint: item.endpoint, outcome: 'failed', errorType: 'balance_exhausted', records: 0, ms: this.o.now() - t0 }
        : { endpoint: item.endpoint, outcome: 'done', records: out.count, ms: this.o.now() - t0 });
      if (fan.applied && !fan.balanceExhausted && this.o.afterComplete) {
        await this.slots.run(() => this.o.afterComplete!(item, records)).catch((e) => this.o.log?.warn({ endpoint: item.endpoint, err: (e as Error).message }, 'business capture failed'));
      }
    } catch (e) {
      // Another worker took the item over (this one stalled past its lease): it owns the query now.
      if (e instanceof LeaseLost) return;
      // It ran in a lent slot past the lending: back to the queue from its checkpoint, no attempt spent.
      if (e instanceof GiveBack) return await this.giveBack(item);
      // The store could not be read or could not record a step or the finished query (an outage, or a
      // pool too busy to lend a connection in time on a loaded box): failing the item would end the
      // query without its records. It goes back to the queue instead (`handBack`), resumed from its
      // last checkpoint and billed once.
      if (e instanceof CheckpointOutage) return this.handBack(item, e.error, t0);
      if (storing && isStoreUnavailable(e)) return this.handBack(item, e, t0);
      await this.failed(item, e, t0);
    } finally {
      end();
    }
  }

  /**
   * An item whose query met a store outage goes back to the queue, due after the first retry's
   * back-off (a pool timeout under load is over in moments; a completion that did commit before its
   * answer was lost is not undone: the hand-back applies only while this worker still holds the
   * lease). If the store refuses the hand-back too, the outage reaches the queue (which logs it) and
   * the item waits for its lease to run out. Either way the query is not ended: the outage is not its fault.
   */
  private async handBack(item: WorkItem, e: unknown, t0: number): Promise<void> {
    noteStoreOutage(this.o.store, e, this.o.now());
    const delay = this.backoff(1);
    const reason = reasonOf(e);
    try {
      const fan = await this.o.store.failItem(item.id, this.o.owner, `store_unavailable: ${reason.message}`, this.o.now() + delay, this.o.now());
      if (fan.applied) await this.o.queue.enqueue([{ id: item.id, delayMs: delay }]);
    } catch {
      throw e;
    }
    this.o.log?.warn({ requestId: item.requestId, query: item.query.slice(0, 200), message: reason.message, attempt: item.attempts, retryInMs: delay },
      'store unavailable: query handed back to the queue');
    this.o.onItem?.({ endpoint: item.endpoint, outcome: 'retry', errorType: 'store_unavailable', records: 0, ms: this.o.now() - t0 });
  }

  private async giveBack(item: WorkItem): Promise<void> {
    if (await this.o.store.releaseItems(this.o.owner, this.o.now(), [item.id])) await this.o.queue.enqueue([{ id: item.id }]);
  }

  /** Ends the item unbilled and undelivered: its account cannot pay (src/billing/credit.ts). */
  private async refuse(item: WorkItem, t0: number): Promise<void> {
    const fan = await this.o.store.failItem(item.id, this.o.owner, BALANCE_EXHAUSTED, null, this.o.now());
    this.after(fan);
    this.o.onItem?.({ endpoint: item.endpoint, outcome: 'failed', errorType: 'balance_exhausted', records: 0, ms: this.o.now() - t0 });
  }

  private async failed(item: WorkItem, e: unknown, t0: number): Promise<void> {
    const se = isSourceError(e) ? e : null;
    // A final error (a name that does not resolve, a body too large) ends the query at once.
    const retry = !!se?.retryable && !isFinal(e) && item.attempts < item.maxAttempts;
    const reason = reasonOf(e);
    this.o.log?.warn({ requestId: item.requestId, query: item.query.slice(0, 200), type: reason.type, message: reason.message, attempt: item.attempts, retry },
      'query attempt failed');
    const delay = retry ? this.backoff(item.attempts, se?.retryAfterMs) : 0;
    const fan = await this.o.store.failItem(item.id, this.o.owner, `${reason.type}: ${reason.message}`, retry ? this.o.now() + delay : null, this.o.now());
    if (retry && fan.applied) await this.o.queue.enqueue([{ id: item.id, delayMs: delay }]);
    this.after(fan);
    this.o.onItem?.({ endpoint: item.endpoint, outcome: retry ? 'retry' : 'failed', errorType: se?.type ?? 'internal', detail: se?.detail, records: 0, ms: this.o.now() - t0 });
  }

  /** `done`: the item whose completion this was (its stored result may be the request's only one). */
  private after(fan: FanIn, done?: WorkItem): void {
    const r = fan.finished;
    if (!r) return;
    this.o.log?.info({ requestId: r.id, endpoint: r.endpoint, status: r.status, queries: r.queriesTotal, records: r.records, units: r.usage,
      ms: (r.finishedAt ?? this.o.now()) - r.createdAt }, 'request finished');
    const all = done && fan.stored && r.queriesTotal === 1 ? [{ queryIndex: done.queryIndex, query: done.query, ...fan.stored }] : undefined;
    this.o.onRequestFinished?.(r, all, fan.deliveries);
  }

  /** Records as stored: no-result markers dropped, each with its `next_page_cursor` when `cursor` is
   *  given (paged endpoints), enriched, those a task's selection leaves out dropped (never stored, so
   *  never billed: src/engine/selection.ts), each with its `query`. */
  private async prepare(item: WorkItem, records: Rec[], cursor?: string | null): Promise<Rec[]> {
    // A "found nothing" marker is not data: the query's result is empty (and may still cost one unit).
    let found = records.filter((r) => !isNoResult(r));
    const { before, after } = selectionTests(item.params, item.query);
    // Tests on the source's own fields first: a place they leave out is never enriched.
    if (before) found = found.filter(before);
    const enriched = !!this.o.enrich && found.length > 0 && this.o.enriches?.(item.params) !== false;
    // The rest read fields an enrichment writes: after it, when there is one.
    if (after && !enriched) found = found.filter(after);
    // Without an enrichment between them, the cursor and the query come in one copy (./record-fields.ts).
    if (cursor !== undefined && !enriched) return withQueryAndCursor(found, item.query, cursor);
    let out = cursor === undefined ? found : withCursor(found, cursor);
    if (enriched) {
      out = await this.o.enrich!(item.endpoint, out, item.params);
      if (after) out = out.filter(after);
    }
    return withQuery(out, item.query);
  }

  /** What completing the item stores: the query's records (or their tail, when streamed), count, units;
   *  beside it the records themselves (null when streamed) for the capture after completion. */
  private async outcome(item: WorkItem, signal: AbortSignal): Promise<{ out: ItemOutcome; records: Rec[] | null }> {
    const adapter = await this.o.adapterFor(item.endpoint);
    if (!adapter) throw new SourceError('invalid_query', `no adapter serves ${item.endpoint}`);
    const base = {
      itemId: item.id, owner: this.o.owner, now: this.o.now(),
      totalLimit: typeof item.params.totalLimit === 'number' ? item.params.totalLimit : undefined,
    };
    // Enrichments are billed per place found, with the item's own bill (exactly once).
    const extraProducts = enrichmentProducts(item.params);
    // Closed by run() once the item's bill is written (or it failed).
    const purse = await this.purseOf(item, extraProducts);
    return this.outcomeWithin(item, signal, adapter, base, extraProducts, purse);
  }

  private async outcomeWithin(item: WorkItem, signal: AbortSignal, adapter: SourceAdapter, base: Pick<ItemOutcome, 'itemId' | 'owner' | 'now' | 'totalLimit'>,
    extraProducts: ExtraProduct[], purse: Purse): Promise<{ out: ItemOutcome; records: Rec[] | null }> {
    const dedupe = item.params.dropDuplicates === true;
    const units = (records: Rec[]) => (adapter.units ? adapter.units(records) : records.length);
    let raw: Rec[];
    let note: string | undefined;
    if (adapter.kind === 'local') {
      raw = await adapter.lookup({ query: item.query, params: item.params }, { settings: this.o.lookupSettings ?? {}, signal });
    } else {
      const parseStep = this.o.parseStep;
      const planStep = this.o.planStep;
      const ctx = { query: item.query, params: item.params };
      // totalLimit and dropDuplicates are applied to a whole query at its completion: those buffer.
      const streamed = !adapter.finish && base.totalLimit === undefined && !dedupe;
      const run = await runSteps({
        store: this.o.store, owner: this.o.owner, item, adapter, fetch: (step) => this.o.fetchStep(step, item.id, signal),
        parse: (step, response) => parseStep
          ? parseStep(item.endpoint, adapter, step, response, ctx, (parse) => this.slots.run(parse))
          : this.slots.run(() => adapter.parse(step, response, ctx)),
        plan: planStep ? () => planStep(item.endpoint, adapter, ctx) : undefined,
        budget: stepBudget(item.params, this.o.maxStepsPerQuery), limit: queryLimit(item.params), streamed,
        paged: this.o.paged?.(item.endpoint) ?? false, prepare: (r, cursor) => this.prepare(item, r, cursor), units, purse, now: this.o.now,
        between: this.o.lending ? () => this.o.lending!.atStep(item) : undefined,
      });
      // A stop of our own (budget, credit) says more than a list read short; else the shortfall (./tally.ts).
      // Stubs served (./stubs.ts) come after either, in the same message: one reason per query.
      const st = run.state.stubs;
      note = noteOf(joinReasons(run.state.note ?? shortfallNote(run.state.tally), stubNote(st)), run.state.summary, st && { retried: st.retried ?? 0, served: st.served ?? 0 }, run.state.learned);
      if (run.last) {
        const { json, utf8 } = await encodeRecords(run.last);
        return { out: { ...base, recordsJson: json, recordsUtf8: utf8, count: run.state.records, units: run.state.units, note, now: this.o.now(), extraProducts }, records: run.last };
      }
      if (streamed) {
        return { out: { ...base, recordsJson: '[]', count: run.state.records, units: run.state.units, streamed: true, note, now: this.o.now(), extraProducts }, records: null };
      }
      raw = adapter.finish ? adapter.finish(run.records, { query: item.query, params: item.params }) : run.records;
    }
    // A lookup's answer, or a merged query, holds no more than the account can pay for (the steps
    // stopped there already; a merge or a lookup may still hold more).
    const fits = await purse.fit(raw, (r) => units([r]));
    if (fits < raw.length) {
      raw = raw.slice(0, fits);
      note = CREDIT_NOTE;
    }
    const records = await this.prepare(item, raw);
    // Encoded a slice a turn: an area's thousands of places are not one stall of the API thread.
    const { json, utf8 } = await encodeRecords(records);
    const out: ItemOutcome = {
      ...base, recordsJson: json, recordsUtf8: utf8, count: records.length, note, now: this.o.now(),
      units: adapter.units ? adapter.units(records) : undefined, dedupeKeys: dedupe ? records.map(dedupeKey) : undefined, extraProducts,
    };
    // A total limit may cut what the store keeps: then the store's copy is the one to read.
    return { out, records: base.totalLimit === undefined ? records : null };
  }
}
