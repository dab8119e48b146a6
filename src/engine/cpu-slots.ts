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
 * @example
 *   const slots = new CpuSlots(2);
 *   const out = await slots.run(() => adapter.parse(step, response, ctx));
 */
import { HostLimiter } from '../fetch/limits.ts';

export class CpuSlots {
  private readonly limiter: HostLimiter | null;

  constructor(slots: number) {
    this.limiter = slots > 0 ? new HostLimiter({ concurrency: slots, rps: 0 }) : null;
  }

  /** `fn` once a slot is free (FIFO), the slot held until its promise settles. */
  async run<T>(fn: () => T | Promise<T>): Promise<T> {
    if (!this.limiter) return fn();
    const release = await this.limiter.acquire('cpu');
    try {
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
