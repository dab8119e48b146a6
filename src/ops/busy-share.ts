/**
 * The share of the last window the calling thread's event loop was busy (issue 37): what a rule that
 * puts work on this thread "while it has room" reads. Busy is wall time outside the loop's I/O wait
 * (`performance.eventLoopUtilization`), not the thread's CPU time: on a box whose cores other
 * processes hold, a task preempted half-way is still a task the loop cannot leave, so a starved
 * thread reads as busy and work goes to a thread that can run beside it, as it should (the CPU time
 * read from /proc said "room" there, and a service parsing everything on it at load 9-14 answered
 * 0.6-0.7x the queries a second; docs/performance/service.md, session 13). Sampled at most once a
 * window, so asking costs a clock read between samples.
 *
 * @example
 *   const busy = new BusyShare();
 *   if (busy.now() < 0.7) parseHere(); else parseOnAThread();
 */
import { performance } from 'node:perf_hooks';

/** Milliseconds a share is measured over. */
export const WINDOW_MS = 250;

/** The event loop's busy milliseconds so far. */
const loopBusyMs = (): number => performance.eventLoopUtilization().active;

export class BusyShare {
  private t: number;
  private busy: number;
  private share = 0;

  /** `busyMs`, `clock`: the thread's busy milliseconds and the time (tests). */
  constructor(private readonly busyMs: () => number = loopBusyMs, private readonly clock: () => number = () => performance.now()) {
    this.t = this.clock();
    this.busy = this.busyMs();
  }

  /** The share (0 to 1) of the last completed window; a long idle spell reads as idle. */
  now(): number {
    const t = this.clock();
    if (t - this.t >= WINDOW_MS) {
      const b = this.busyMs();
      this.share = (b - this.busy) / (t - this.t);
      this.t = t;
      this.busy = b;
    }
    return this.share;
  }
}
