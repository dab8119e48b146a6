/**
 * At most N queries in their CPU-heavy phases on the API thread at once (issue 15): a parse done on
 * this thread, the completion's store transaction and the business capture (a parse on a parse
 * thread holds no slot). Network
 * waits are not held here, so CONCURRENCY queries still fetch at once; but when pages arrive faster
 * than the thread can process them (replay, fast sites), only N queries' work is ready to run at any
 * moment, and a request that just arrived (a `/health` probe, another client's submit) waits behind
 * at most N chunks instead of behind every running query's. The per-host semaphore of the executor
 * (src/fetch/limits.ts), with one key. CPU_SLOTS=0 turns it off.
 *
 * A slot handed over to a waiter once this event-loop turn has run TURN_BUDGET_MS starts the
 * waiter's work on a later turn: the semaphore hands over by resolving a promise, so every queued
 * phase would otherwise run in the same macrotask, one after the other (a probe measured 30 ms of
 * business captures and 23 ms of parses back to back under "all together"), and I/O waits behind
 * them all. Within the budget they run on together (the store's group commit batches them).
 *
 * @example
 *   const slots = new CpuSlots(2);
 *   const out = await slots.run(() => adapter.parse(step, response, ctx));
 */
import { HostLimiter } from '../fetch/limits.ts';
import { yieldIfLong } from '../ops/turn-budget.ts';

/** Event-loop time after which a handed-over slot waits for the next turn. */
export const TURN_BUDGET_MS = 2;

export class CpuSlots {
  private readonly limiter: HostLimiter | null;

  constructor(private readonly slots: number) {
    this.limiter = slots > 0 ? new HostLimiter({ concurrency: slots, rps: 0 }) : null;
  }

  /** `fn` once a slot is free (FIFO), the slot held until its promise settles; after a wait, on a
   *  later event-loop turn when this one has run TURN_BUDGET_MS. */
  async run<T>(fn: () => T | Promise<T>): Promise<T> {
    if (!this.limiter) return fn();
    const waits = this.limiter.inFlight('cpu') >= this.slots;
    const release = await this.limiter.acquire('cpu');
    try {
      if (waits) await yieldIfLong(TURN_BUDGET_MS);
      return await fn();
    } finally {
      release();
    }
  }

  /** Slots held now (tests). */
  running(): number {
    return this.limiter?.inFlight('cpu') ?? 0;
  }
}
