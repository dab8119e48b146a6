/**
 * Runs one work item: the adapter's steps for one query, then completes or fails the item in the
 * store. Retryable source errors go back to the queue with exponential backoff and jitter; anything
 * else ends the query with its error. A heartbeat keeps the lease while a long query runs.
 *
 * @example
 *   const runner = new Runner({ store, queue, adapters, fetchStep, owner: 'w-1' });
 *   queue.start((item) => runner.run(item), { concurrency: 8, owner: 'w-1', leaseMs: 60_000 });
 */
import type { FanIn, RequestRow, Store, WorkItem } from '../store/contract.ts';
import { isNoResult, type FetchedResponse, type SourceAdapter, type Step } from '../sources/_kit/adapter.ts';
import { SourceError, isSourceError } from '../sources/_kit/errors.ts';
import type { WorkQueue } from './queue.ts';
import { dedupeKey } from './dedupe.ts';
import { isStoreUnavailable } from '../store/unavailable.ts';

export type FetchStep = (step: Step, sessionKey: string, signal: AbortSignal) => Promise<FetchedResponse>;

export interface RunnerEvents {
  /** A request ended (Success or Failure): tasks and webhooks follow up. */
  onRequestFinished?(r: RequestRow): void;
  onItem?(e: { endpoint: string; outcome: 'done' | 'retry' | 'failed'; errorType?: string; records: number; ms: number }): void;
}

export interface RunnerOptions extends RunnerEvents {
  store: Store;
  queue: WorkQueue;
  adapterFor(endpoint: string): Promise<SourceAdapter | undefined> | SourceAdapter | undefined;
  fetchStep: FetchStep;
  owner: string;
  leaseMs?: number;
  /** Settings handed to local adapters (resolvers, SMTP port ...). */
  lookupSettings?: Record<string, unknown>;
  /** Upper bound of steps one query may take (paging, cells), so a looping adapter cannot run forever. */
  maxStepsPerQuery?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  now?: () => number;
  /** Called when an item ends, to free its fetch session. */
  endSession?(key: string): void;
  /** Post-processing of a query's records (maps enrichments). */
  enrich?(endpoint: string, records: Record<string, unknown>[], params: Record<string, unknown>): Promise<Record<string, unknown>[]>;
}

export class Runner {
  private readonly o: Required<Pick<RunnerOptions, 'leaseMs' | 'maxStepsPerQuery' | 'backoffBaseMs' | 'backoffMaxMs' | 'now'>> & RunnerOptions;

  constructor(o: RunnerOptions) {
    this.o = { leaseMs: 60_000, maxStepsPerQuery: 2_000, backoffBaseMs: 1_000, backoffMaxMs: 120_000, now: Date.now, ...o };
  }

  /** Backoff for the n-th failed attempt: base * 4^(n-1), capped, with full jitter on the upper half. */
  backoff(attempt: number, hintMs?: number): number {
    const exp = Math.min(this.o.backoffMaxMs, this.o.backoffBaseMs * 4 ** Math.max(0, attempt - 1));
    const jittered = exp / 2 + Math.random() * (exp / 2);
    return Math.max(jittered, hintMs ?? 0);
  }

  async run(item: WorkItem): Promise<void> {
    const t0 = this.o.now();
    const ac = new AbortController();
    const beat = setInterval(() => {
      this.o.store.heartbeat(this.o.owner, [item.id], this.o.now() + this.o.leaseMs).catch(() => {});
    }, Math.max(1_000, this.o.leaseMs / 3));
    beat.unref();
    let storing = false;
    try {
      const { records, units } = await this.records(item, ac.signal);
      const keys = item.params.dropDuplicates === true ? records.map(dedupeKey) : undefined;
      storing = true;
      const fan = await this.o.store.completeItem({
        itemId: item.id, owner: this.o.owner, recordsJson: JSON.stringify(records), count: records.length, units, dedupeKeys: keys,
        totalLimit: typeof item.params.totalLimit === 'number' ? item.params.totalLimit : undefined, now: this.o.now(),
      });
      storing = false;
      this.after(fan);
      this.o.onItem?.({ endpoint: item.endpoint, outcome: 'done', records: records.length, ms: this.o.now() - t0 });
    } catch (e) {
      // The store could not record a finished query (outage): failing the item would end the query
      // without its records. Leave it leased; when the lease runs out it runs again, billed once.
      if (storing && isStoreUnavailable(e)) throw e;
      await this.failed(item, e, t0);
    } finally {
      clearInterval(beat);
      this.o.endSession?.(item.id);
    }
  }

  private async failed(item: WorkItem, e: unknown, t0: number): Promise<void> {
    const se = isSourceError(e) ? e : null;
    const retry = !!se?.retryable && item.attempts < item.maxAttempts;
    const message = se ? `${se.type}: ${se.message}` : `internal: ${(e as Error)?.message ?? String(e)}`;
    const delay = retry ? this.backoff(item.attempts, se?.retryAfterMs) : 0;
    const fan = await this.o.store.failItem(item.id, this.o.owner, message, retry ? this.o.now() + delay : null, this.o.now());
    if (retry && fan.applied) await this.o.queue.enqueue([{ id: item.id, delayMs: delay }]);
    this.after(fan);
    this.o.onItem?.({ endpoint: item.endpoint, outcome: retry ? 'retry' : 'failed', errorType: se?.type ?? 'internal', records: 0, ms: this.o.now() - t0 });
  }

  private after(fan: FanIn): void {
    if (fan.finished) this.o.onRequestFinished?.(fan.finished);
  }

  /** Every record of one query. */
  private async records(item: WorkItem, signal: AbortSignal): Promise<{ records: Record<string, unknown>[]; units?: number }> {
    const adapter = await this.o.adapterFor(item.endpoint);
    if (!adapter) throw new SourceError('invalid_query', `no adapter serves ${item.endpoint}`);
    const ctx = { query: item.query, params: item.params };
    let records: Record<string, unknown>[];
    if (adapter.kind === 'local') {
      records = await adapter.lookup(ctx, { settings: this.o.lookupSettings ?? {}, signal });
    } else {
      records = [];
      const pending: Step[] = adapter.plan(ctx);
      let steps = 0;
      while (pending.length) {
        if (++steps > this.o.maxStepsPerQuery) throw new SourceError('layout_changed', `more than ${this.o.maxStepsPerQuery} steps for one query`);
        const step = pending.shift()!;
        const res = await this.o.fetchStep(step, item.id, signal);
        const out = adapter.parse(step, res, ctx);
        for (const r of out.records) records.push(r);
        if (out.next) pending.push(...out.next);
      }
      if (adapter.finish) records = adapter.finish(records, ctx);
    }
    // A "found nothing" marker is not data: the query's result is empty (and may still cost one unit).
    records = records.filter((r) => !isNoResult(r));
    if (this.o.enrich) records = await this.o.enrich(item.endpoint, records, item.params);
    return {
      records: records.map((r) => ('query' in r ? r : { query: item.query, ...r })),
      units: adapter.units ? adapter.units(records) : undefined,
    };
  }
}
