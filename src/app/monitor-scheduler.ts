/**
 * Runs monitors (issue 29). Every process with workers ticks: it takes over runs whose claimer died,
 * claims due runs (store/monitors/: one owner per due time) and starts each as an ordinary request, with the
 * request id chosen at the claim (a take-over submits that same id, so a run's request exists once),
 * asking only what moved (monitors/signal.ts), then ends the runs whose request ended: the records against
 * what the monitor saw before (monitors/compare.ts), stored with the run in one transaction.
 *
 * A run's request carries the monitor's webhook, so the delivery is made, signed, retried and logged
 * like every webhook's; its body gains the run's changes (./monitor-webhook-part.ts).
 *
 * @example const s = new MonitorScheduler(ctx); s.start(); ... await s.stop();
 */
import type { AppContext } from './context.ts';
import type { RequestRow } from '../store/contract.ts';
import { MONITOR_RUN, type MonitorRow, type MonitorRunRow } from '../store/monitors/contract.ts';
import { monitorStoreOf } from '../store/monitors/index.ts';
import { endpointFor } from '../contract/endpoints/index.ts';
import { newRequestId } from './ids.ts';
import { submit } from './submit.ts';
import { AppError } from './errors.ts';
import { CREDIT_LIMIT } from '../billing/purse.ts';
import { diffRun, type QueryRecords } from '../monitors/compare.ts';
import { nextRunAfter } from '../monitors/schedule.ts';
import { planRun, runLearned, wholeReadsOf } from '../monitors/signal.ts';
import { splitNote } from '../engine/note.ts';
import type { Learned } from '../sources/_kit/learned.ts';

export { MONITOR_RUN };

/** A claim not confirmed as started this long after it was made is taken over. */
const STALE_CLAIM_MS = 30_000;
/** Runs claimed per tick at most (the rest wait a tick: a burst of due monitors does not flood the queue at once). */
const CLAIMS_PER_TICK = 50;

export class MonitorScheduler {
  private timer: NodeJS.Timeout | null = null;
  private busy: Promise<void> | null = null;
  private readonly onFinished = (r: RequestRow) => { if (r.params?.[MONITOR_RUN]) this.kick(); };

  constructor(private readonly ctx: AppContext, private readonly pollMs = 1_000) {}

  start(): void {
    this.timer = setInterval(() => this.kick(), this.pollMs);
    this.timer.unref();
    this.ctx.events.on('finished', this.onFinished);
    this.kick();
  }

  kick(): void {
    if (this.busy) return;
    this.busy = this.tick().catch((e) => this.ctx.log.warn({ err: (e as Error).message }, 'monitor tick failed')).finally(() => { this.busy = null; });
  }

  /** One pass: take-overs, claims, ends. Exposed for tests. */
  async tick(): Promise<void> {
    const store = monitorStoreOf(this.ctx.store);
    const now = this.ctx.now();
    for (const run of await store.staleClaims(now - STALE_CLAIM_MS, 20)) {
      if (await store.retakeRun(run.id, run.claimedAt, now)) await this.startRun(run);
    }
    for (let i = 0; i < CLAIMS_PER_TICK; i++) {
      const c = await store.claimDueRun(now, (m) => nextRunAfter(m.schedule, now, m.nextRunAt ?? now), newRequestId);
      if (!c) break;
      await this.startRun(c.run, c.monitor);
    }
    for (const run of await store.runningRuns(100)) {
      // Whether it ended first (a look at each running run per tick): the whole row only once it has.
      const end = await this.ctx.store.requestEnd(run.requestId);
      const r = end?.finishedAt != null ? await this.ctx.store.getRequest(run.requestId) : null;
      if (r) await endRun(this.ctx, run, r);
      else if (!end) await store.finishRun(run.id, failed(`its request ${run.requestId} is gone`, this.ctx.now()));
    }
  }

  /** Submits the run's request (its id chosen at the claim); a request already there is this run's. */
  private async startRun(run: MonitorRunRow, monitor?: MonitorRow): Promise<void> {
    const store = monitorStoreOf(this.ctx.store);
    const m = monitor ?? await store.getMonitor(run.accountId, run.monitorId);
    const account = await this.ctx.store.getAccount(run.accountId);
    const decl = m && endpointFor(m.endpoint);
    let why: string | null = null;
    let unpaid = false;
    if (!m || !account || !decl) why = !m ? 'the monitor was deleted' : !account ? 'the account is gone' : `${m.endpoint} is not served`;
    else if (!(await this.ctx.store.getRequest(run.requestId))) {
      try {
        const plan = await planRun(store, m, run.baseline, run.dueAt);
        if (!plan.queries.length) {
          // Nothing moved in the cheap signal: the run is done without a request (./signal.ts).
          await store.markRunning(run.id);
          await store.finishRun(run.id, { ...failed('', this.ctx.now()), status: 'done', reason: 'nothing moved since the last run: no request was needed' });
          return;
        }
        await submit(this.ctx, account, decl, { ...plan.params, [MONITOR_RUN]: run.id }, plan.queries, { webhook: m.webhook, ui: false, id: run.requestId });
      } catch (e) {
        // Another process submitted the same id meanwhile (it was late, not dead): that request is this run's.
        if (!(await this.ctx.store.getRequest(run.requestId))) {
          why = `the run could not start: ${(e as Error).message}`;
          unpaid = e instanceof AppError && e.status === 402;
        }
      }
    }
    await store.markRunning(run.id);
    if (why) {
      this.ctx.log.warn({ monitorId: run.monitorId, runId: run.id }, why);
      await store.finishRun(run.id, failed(why, this.ctx.now()));
      if (unpaid) await pauseUnpaid(this.ctx, run, UNPAID);
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.ctx.events.off('finished', this.onFinished);
    await this.busy;
  }
}

/** Why a monitor whose account cannot pay pauses itself: runs that fail at no cost would go on for good. */
const UNPAID = 'its account cannot pay a run (balance plus credit limit used up): top up, then resume it (PATCH {"status": "active"})';
const CREDIT_STOP = 'a run stopped at its account\'s credit limit (its records up to there are kept and billed): top up, then resume it (PATCH {"status": "active"})';

/**
 * Pauses a monitor whose run could not be paid, with the reason (shown as its `paused_reason`), so
 * it stops claiming runs that can only fail. Only an active one: a pause or resume the user made
 * since is theirs. The user resumes it after topping up (src/app/monitors.ts refuses a resume the
 * account still cannot pay).
 */
async function pauseUnpaid(ctx: AppContext, run: MonitorRunRow, reason: string): Promise<void> {
  const store = monitorStoreOf(ctx.store);
  const m = await store.getMonitor(run.accountId, run.monitorId);
  if (m?.status !== 'active') return;
  await store.updateMonitor(run.accountId, run.monitorId, { status: 'paused', pausedReason: reason, nextRunAt: null }, ctx.now());
  ctx.log.warn({ monitorId: run.monitorId, runId: run.id }, `monitor paused: ${reason}`);
}

function failed(reason: string, now: number) {
  return { status: 'failed' as const, reason, counts: { new: 0, gone: 0, changed: 0, new_reviews: 0, removed: 0, records: 0 }, changes: [], seen: [], gone: [], now };
}

/** Reads a query's records; a query that failed (not one that ended early with its records) is
 *  marked. A query's note is its reason (a failure, an early end) and what it learned of the view
 *  cap (src/engine/note.ts): a note without a reason (an area's coverage alone) is no failure. */
async function resultsOf(ctx: AppContext, requestId: string): Promise<{ queries: QueryRecords[]; firstError: string | null; creditStop: boolean; learned: Map<string, Learned> }> {
  const byIndex = new Map<number, QueryRecords>();
  const learned = new Map<string, Learned>();
  let firstError: string | null = null;
  let creditStop = false;
  for await (const part of ctx.store.readResults(requestId)) {
    let q = byIndex.get(part.queryIndex);
    if (!q) { q = { query: part.query, records: [] }; byIndex.set(part.queryIndex, q); }
    for (const r of JSON.parse(part.recordsJson) as Record<string, unknown>[]) q.records.push(r);
    const note = part.more ? null : splitNote(part.error);
    if (note?.learned) learned.set(part.query, note.learned);
    const reason = note?.reason ?? null;
    if (reason?.startsWith(CREDIT_LIMIT)) {
      // Stopped where the account could pay no more: what it found counts, what it did not reach is
      // not gone (./compare.ts), and the monitor pauses.
      q.partial = true;
      creditStop = true;
    } else if (reason && !reason.startsWith('step_budget')) {
      q.failed = q.records.length === 0;
      firstError ??= reason;
    }
  }
  return { queries: [...byIndex.values()], firstError, creditStop, learned };
}

/**
 * Ends a run whose request ended: its changes, what the monitor has now seen, its counts. Safe to call
 * from several processes (the store ends a run once). Returns the run as ended, or null.
 */
export async function endRun(ctx: AppContext, run: MonitorRunRow, request: RequestRow): Promise<void> {
  const store = monitorStoreOf(ctx.store);
  const m = await store.getMonitor(run.accountId, run.monitorId);
  const now = ctx.now();
  if (!m) { await store.finishRun(run.id, failed('the monitor was deleted', now)); return; }
  const { queries, firstError, creditStop, learned } = await resultsOf(ctx, request.id);
  if (request.status !== 'Success' || queries.every((q) => q.failed)) {
    const why = `its request ${request.id} ended in Failure: ${firstError ?? (creditStop ? CREDIT_STOP : 'no query succeeded')}`;
    // The run's reason is in GET /monitors/{id}/runs; the operator's log says it too.
    if (await store.finishRun(run.id, failed(why, now))) ctx.log.warn({ monitorId: run.monitorId, runId: run.id }, `monitor run failed: ${why}`);
    if (creditStop) await pauseUnpaid(ctx, run, CREDIT_STOP);
    return;
  }
  const before = await store.seenRecords(m.id);
  const d = diffRun(before, queries, m.compare, {
    monitorId: m.id, runId: run.id, at: now, baseline: run.baseline, queries: m.queries, whole: wholeReadsOf(request.params), due: run.dueAt,
  });
  const reason = firstError ? `some queries failed: ${firstError}` : creditStop ? CREDIT_STOP : null;
  await store.finishRun(run.id, { status: 'done', reason, counts: d.counts, changes: d.changes, seen: d.seen, gone: d.gone, now, learned: runLearned(m.learned, learned) });
  if (creditStop) await pauseUnpaid(ctx, run, CREDIT_STOP);
}
