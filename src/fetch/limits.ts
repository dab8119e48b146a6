/**
 * Per-host politeness: at most N requests in flight (semaphore) and at most R started per second
 * (token bucket with a burst). Entries of idle hosts are dropped, so a server that visits millions
 * of user-given hosts keeps no state for them.
 */
import { SourceError } from '../sources/_kit/errors.ts';

interface Waiter {
  resolve: (release: () => void) => void;
  reject: (e: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

interface HostState {
  inFlight: number;
  queue: Waiter[];
  tokens: number;
  refilledAt: number;
  timer?: NodeJS.Timeout;
}

export interface HostLimiterOptions {
  concurrency: number;
  /** Requests per second; 0 = unlimited. */
  rps: number;
  burst?: number;
  now?: () => number;
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new SourceError('network', 'aborted');
}

export class HostLimiter {
  private readonly hosts = new Map<string, HostState>();
  private readonly concurrency: number;
  private readonly rps: number;
  private readonly burst: number;
  private readonly now: () => number;
  private ops = 0;

  constructor(opts: HostLimiterOptions) {
    this.concurrency = Math.max(1, opts.concurrency);
    this.rps = Math.max(0, opts.rps);
    this.burst = Math.max(1, opts.burst ?? Math.ceil(this.rps));
    this.now = opts.now ?? (() => performance.now());
  }

  /**
   * Waits for a slot and a token for `host`; resolves with the release function (call it once,
   * when the response body is read). Rejects when `signal` aborts while waiting.
   *
   * @example
   *   const release = await limiter.acquire('maps.google.com:443', signal);
   *   try { await send(); } finally { release(); }
   */
  acquire(host: string, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(abortError(signal));
    if (++this.ops % 1024 === 0) this.sweep();
    let st = this.hosts.get(host);
    if (!st) {
      st = { inFlight: 0, queue: [], tokens: this.burst, refilledAt: this.now() };
      this.hosts.set(host, st);
    }
    const state = st;
    // Fast path (the common case): a free slot and a token, nobody queued: no waiter, no listener.
    if (state.queue.length === 0 && state.inFlight < this.concurrency) {
      this.refill(state);
      if (this.rps === 0 || state.tokens >= 1) {
        if (this.rps > 0) state.tokens -= 1;
        state.inFlight++;
        return Promise.resolve(this.releaser(host, state));
      }
    }
    return new Promise((resolve, reject) => {
      const w: Waiter = { resolve, reject, signal };
      if (signal) {
        w.onAbort = () => {
          const i = state.queue.indexOf(w);
          if (i >= 0) state.queue.splice(i, 1);
          reject(abortError(signal));
          this.maybeDrop(host, state);
        };
        signal.addEventListener('abort', w.onAbort, { once: true });
      }
      state.queue.push(w);
      this.pump(host, state);
    });
  }

  /** Hosts currently tracked (for tests and metrics). */
  get size(): number {
    return this.hosts.size;
  }

  inFlight(host: string): number {
    return this.hosts.get(host)?.inFlight ?? 0;
  }

  private refill(st: HostState): void {
    if (this.rps === 0) return;
    const t = this.now();
    st.tokens = Math.min(this.burst, st.tokens + ((t - st.refilledAt) / 1000) * this.rps);
    st.refilledAt = t;
  }

  private pump(host: string, st: HostState): void {
    while (st.queue.length > 0 && st.inFlight < this.concurrency) {
      this.refill(st);
      if (this.rps > 0 && st.tokens < 1) {
        if (!st.timer) {
          const wait = Math.ceil(((1 - st.tokens) / this.rps) * 1000);
          st.timer = setTimeout(() => {
            st.timer = undefined;
            this.pump(host, st);
          }, wait);
        }
        return;
      }
      const w = st.queue.shift()!;
      if (this.rps > 0) st.tokens -= 1;
      st.inFlight++;
      if (w.signal && w.onAbort) w.signal.removeEventListener('abort', w.onAbort);
      w.resolve(this.releaser(host, st));
    }
  }

  /** The release function of one taken slot; a second call does nothing. */
  private releaser(host: string, st: HostState): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      st.inFlight--;
      this.pump(host, st);
      this.maybeDrop(host, st);
    };
  }

  /** Drops idle hosts whose bucket refilled since they were last used. */
  private sweep(): void {
    for (const [host, st] of this.hosts) this.maybeDrop(host, st);
  }

  /** Forget a host once nothing waits, nothing runs and its bucket is full again. */
  private maybeDrop(host: string, st: HostState): void {
    if (st.inFlight > 0 || st.queue.length > 0 || st.timer) return;
    this.refill(st);
    if (this.rps === 0 || st.tokens >= this.burst) this.hosts.delete(host);
  }
}
