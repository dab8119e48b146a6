/**
 * Adaptive pacing: the gap between request starts, per pacing key (a host, or a host through one
 * proxy: the site sees one IP), follows the site's latency and errors the way Scrapy's
 * AutoThrottle does, and never drops below the gap the configured cap allows.
 *
 * - A success moves the gap halfway towards `latency / targetConcurrency` (a server that takes
 *   `latency` to answer serves `targetConcurrency` requests at once at that pace).
 * - Any other error may lengthen the gap, never shorten it (error pages are often fast).
 * - A soft block or a 429 doubles the gap and pauses the key for `max(Retry-After, gap)`; requests
 *   already waiting re-check the pause when they wake, so none starts inside it.
 *
 * A request reserves its start time at once (no polling): waiters on one key each sleep exactly
 * until their own slot.
 */
import { sleep } from './retry.ts';

export type PaceOutcome = 'ok' | 'error' | 'soft_block' | 'rate_limited';

export interface PaceSlot {
  key: string;
  /** The cap: the smallest gap between starts on this key (1000 / rps; 0 = no cap). */
  minDelayMs: number;
}

export interface PacerOptions {
  /** Requests in flight per key the pace aims at (AutoThrottle's target concurrency). */
  targetConcurrency: number;
  /** Longest gap the pace grows to. */
  maxDelayMs: number;
  now?: () => number;
  /** Waits (tests pass a fake clock's). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

interface KeyState {
  delay: number;
  /** Earliest start of the next reservation. */
  nextAt: number;
  pausedUntil: number;
  usedAt: number;
}

export class Pacer {
  private readonly keys = new Map<string, KeyState>();
  private readonly opts: Required<PacerOptions>;
  private ops = 0;

  constructor(opts: PacerOptions) {
    this.opts = { now: () => performance.now(), sleep, ...opts };
  }

  private state(s: PaceSlot, now: number): KeyState {
    let st = this.keys.get(s.key);
    if (!st) {
      st = { delay: s.minDelayMs, nextAt: now, pausedUntil: 0, usedAt: now };
      this.keys.set(s.key, st);
    }
    // A cap lowered or raised since (settings are per executor, but keys may share one).
    if (st.delay < s.minDelayMs) st.delay = s.minDelayMs;
    return st;
  }

  /**
   * When the slots could start a request, without reserving (for choosing the least busy proxy).
   *
   * @example pacer.readyAt([{ key: 'maps.example:443|proxy-3', minDelayMs: 25 }])
   */
  readyAt(slots: PaceSlot[]): number {
    let t = this.opts.now();
    for (const s of slots) {
      const st = this.keys.get(s.key);
      if (st) t = Math.max(t, st.nextAt, st.pausedUntil);
    }
    return t;
  }

  /**
   * Waits for a start on every slot, reserving it at once; resolves 0. When a slot is paused
   * (Retry-After) for longer than `maxPauseMs`, reserves nothing and resolves the pause left, so
   * the caller can hand the wait back to its scheduler. Rejects with the signal's reason on abort.
   *
   * @example
   *   if (await pacer.wait([{ key: `${host}|${proxy}`, minDelayMs: 50 }], signal, 30_000)) throw ...
   */
  async wait(slots: PaceSlot[], signal?: AbortSignal, maxPauseMs = Infinity): Promise<number> {
    if (++this.ops % 1024 === 0) this.sweep();
    for (;;) {
      const now = this.opts.now();
      let start = now;
      const states = slots.map((s) => this.state(s, now));
      const paused = Math.max(...states.map((st) => st.pausedUntil)) - now;
      if (paused > maxPauseMs) return paused;
      for (const st of states) start = Math.max(start, st.nextAt, st.pausedUntil);
      for (const st of states) {
        // An ungapped key takes no reservation: a later slot held on another key must not hold
        // it back for everyone else.
        if (st.delay > 0) st.nextAt = start + st.delay;
        st.usedAt = start;
      }
      if (start <= now) return 0;
      await this.opts.sleep(start - now, signal);
      // A pause that began while we slept (429, soft block) moves us behind it.
      const t = this.opts.now();
      if (!states.some((st) => st.pausedUntil > t)) return 0;
    }
  }

  /**
   * Feeds one response back: `latencyMs` from start to headers.
   *
   * @example pacer.record(slots, 120, 'rate_limited', 5000);
   */
  record(slots: PaceSlot[], latencyMs: number, outcome: PaceOutcome, retryAfterMs?: number): void {
    const now = this.opts.now();
    const { targetConcurrency, maxDelayMs } = this.opts;
    for (const s of slots) {
      const st = this.state(s, now);
      const floor = s.minDelayMs;
      if (outcome === 'ok') {
        const target = latencyMs / targetConcurrency;
        st.delay = (st.delay + target) / 2;
      } else if (outcome === 'error') {
        st.delay = Math.max(st.delay, (st.delay + latencyMs / targetConcurrency) / 2);
      } else {
        // Backing off from a floor of 0 must still move: start from one latency.
        st.delay = Math.max(st.delay * 2, floor * 2, latencyMs, 1);
        const pause = Math.max(retryAfterMs ?? 0, st.delay);
        st.pausedUntil = Math.max(st.pausedUntil, now + pause);
        st.nextAt = Math.max(st.nextAt, st.pausedUntil);
      }
      st.delay = Math.min(maxDelayMs, Math.max(floor, st.delay));
      st.usedAt = now;
    }
  }

  /** The current gap of a key (tests, metrics). */
  delayOf(key: string): number | undefined {
    return this.keys.get(key)?.delay;
  }

  get size(): number {
    return this.keys.size;
  }

  /** Forgets keys idle for a minute whose pause is over: user-given hosts leave no state. */
  private sweep(): void {
    const now = this.opts.now();
    for (const [k, st] of this.keys) if (now - st.usedAt > 60_000 && st.pausedUntil < now && st.nextAt < now) this.keys.delete(k);
  }
}
