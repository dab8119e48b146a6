/**
 * Adaptive pacing: the gap between request starts, per pacing key (a host, or a host through one
 * proxy: the site sees one IP), follows the site's latency and errors the way Scrapy's
 * AutoThrottle does, and never drops below the gap the configured cap allows.
 *
 * - A success moves the gap halfway towards `latency / targetConcurrency` (a server that takes
 *   `latency` to answer serves `targetConcurrency` requests at once at that pace).
 * - Any other error may lengthen the gap, never shorten it (error pages are often fast).
 * - A soft block or a 429 doubles the gap and pauses the key for `max(Retry-After, gap)`; requests
 *   already waiting re-check the pause when they wake, so none starts inside it. Answers to
 *   requests sent before that back-off (the rest of the same burst) extend the pause but do not
 *   double the gap again: five 429s of one burst are one back-off, not a gap 32 times longer.
 *
 * - A capped key (one with a `minDelayMs`) also limits the requests in flight on it, TCP's slow
 *   start: one until the site has answered once, one more per success, halved by a soft block or a
 *   429. Requests that would queue behind a connection being opened (a new proxy, a new
 *   handshake) leave together when it is up and reach the site as a burst, whatever their start
 *   times said: with one in flight nothing queues there.
 *
 * A request reserves its start time at once (no polling): waiters on one key each sleep exactly
 * until their own slot. Slots that passed while the process was busy do not all start at once when
 * it wakes: at most three go back to back, the others take new slots behind the rest. A caller that has chosen a key but not reserved yet (an identity just
 * leased) holds a start on it, which `readyAt` counts: many leases made in one turn spread over the
 * keys instead of all taking the one that looked idle.
 *
 * Across processes (`slots`, src/fetch/cluster/link.ts), a capped key's start times come from the
 * cluster's reservations instead of this process's own, and a back-off is told to the others
 * (`onBackOff`) and taken from them (`holdOff`): N processes send what one would.
 */
import { sleep } from './retry.ts';
import type { SlotSource } from './cluster/link.ts';

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
  /** Most requests in flight on a capped key (default: twice the target concurrency). */
  maxInFlight?: number;
  now?: () => number;
  /** Waits (tests pass a fake clock's). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Where capped keys' starts come from when processes share them (default: this pacer reserves them). */
  slots?: SlotSource;
  /** Told of each back-off (a 429 or soft block that paused a key): the pause and the new gap. */
  onBackOff?: (key: string, pauseMs: number, gapMs: number) => void;
}

interface KeyState {
  delay: number;
  /** Earliest start of the next reservation. */
  nextAt: number;
  pausedUntil: number;
  usedAt: number;
  /** Starts promised by `hold` and not reserved yet. */
  held: number;
  /** Requests between their start and their answer, how many may be, and who waits for one. */
  inFlight: number;
  window: number;
  queue: Array<() => void>;
  /** When the key last backed off (a soft block or a 429). */
  backedOffAt: number;
  /** When the next start is due by the starts actually made (a start a gap after the last). */
  due: number;
}

/** How many gaps early a start may be on the starts actually made: at most 3 back to back. */
const CATCH_UP_GAPS = 2;

/** One start taken by `wait`: `paused` > 0 when none was (the pause left, in ms); `done()` when its answer is in. */
export interface PaceStart {
  paused: number;
  done(): void;
}

const NOTHING: PaceStart = { paused: 0, done: () => undefined };

export class Pacer {
  private readonly keys = new Map<string, KeyState>();
  private readonly opts: Required<Omit<PacerOptions, 'slots' | 'onBackOff'>> & Pick<PacerOptions, 'slots' | 'onBackOff'>;
  private ops = 0;
  /** Shared starts that came or woke too late to use, and were taken again (metrics, the bench). */
  expired = 0;

  constructor(opts: PacerOptions) {
    this.opts = { now: () => performance.now(), sleep, maxInFlight: Math.max(1, Math.ceil(opts.targetConcurrency * 2)), ...opts };
  }

  private state(s: PaceSlot, now: number): KeyState {
    let st = this.keys.get(s.key);
    if (!st) {
      st = { delay: s.minDelayMs, nextAt: now, pausedUntil: 0, usedAt: now, held: 0, inFlight: 0, window: 1, queue: [], backedOffAt: -Infinity, due: -Infinity };
      this.keys.set(s.key, st);
    }
    // A cap lowered or raised since (settings are per executor, but keys may share one).
    if (st.delay < s.minDelayMs) st.delay = s.minDelayMs;
    return st;
  }

  /**
   * When the slots could start a request, without reserving (for choosing the least busy proxy):
   * after the starts reserved and the starts held.
   *
   * @example pacer.readyAt([{ key: 'maps.example:443|proxy-3', minDelayMs: 25 }])
   */
  readyAt(slots: PaceSlot[]): number {
    const now = this.opts.now();
    let t = now;
    for (const s of slots) {
      const st = this.keys.get(s.key);
      if (st) t = Math.max(t, Math.max(now, st.nextAt, st.pausedUntil) + (st.held + st.queue.length) * st.delay);
    }
    return t;
  }

  /**
   * Promises a start on the slots to a caller that will `wait` on them soon; returns the release
   * (call it right before that `wait`, and in any case when done; a second call does nothing).
   *
   * @example
   *   const unhold = pacer.hold(slots); // identity leased
   *   ...; unhold(); await pacer.wait(slots, signal);
   */
  hold(slots: PaceSlot[]): () => void {
    const now = this.opts.now();
    const states = slots.map((s) => this.state(s, now));
    for (const st of states) st.held++;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      for (const st of states) st.held = Math.max(0, st.held - 1);
    };
  }

  /**
   * Waits for a start on every slot: a place in flight on each capped key, then a start time,
   * reserved at once. `places` > 1 reserves that many gaps for this start, fractions too (a request
   * that opens a connection first reaches the site later: the next start must not land beside it). When a slot is paused (Retry-After) for longer than `maxPauseMs`, takes
   * nothing and resolves the pause left (`paused`), so the caller can hand the wait back to its
   * scheduler. Rejects with the signal's reason on abort. Call `done()` once the answer is in.
   *
   * @example
   *   const start = await pacer.wait([{ key: `${host}|${proxy}`, minDelayMs: 50 }], signal, 30_000);
   *   if (start.paused) throw ...;
   *   try { await send(); } finally { start.done(); }
   */
  async wait(slots: PaceSlot[], signal?: AbortSignal, maxPauseMs = Infinity, places = 1): Promise<PaceStart> {
    if (++this.ops % 1024 === 0) this.sweep();
    const pausedLeft = () => {
      const now = this.opts.now();
      return Math.max(...slots.map((s) => this.state(s, now).pausedUntil)) - now;
    };
    if (pausedLeft() > maxPauseMs) return { paused: pausedLeft(), done: NOTHING.done };
    const entered: KeyState[] = [];
    const leave = () => {
      for (const st of entered.splice(0)) {
        st.inFlight = Math.max(0, st.inFlight - 1);
        this.pump(st);
      }
    };
    try {
      for (const s of slots) {
        if (s.minDelayMs <= 0) continue;
        const st = this.state(s, this.opts.now());
        await this.enter(st, signal);
        entered.push(st);
      }
      for (;;) {
        const now = this.opts.now();
        let start = now;
        const states = slots.map((s) => this.state(s, now));
        const paused = Math.max(...states.map((st) => st.pausedUntil)) - now;
        if (paused > maxPauseMs) {
          leave();
          return { paused, done: NOTHING.done };
        }
        const shared = this.opts.slots;
        // The end of the shared starts' places: a start later than that is the next holder's.
        let until = Infinity;
        if (shared && slots.some((s) => s.minDelayMs > 0)) {
          // Shared starts: none is reserved inside a pause (it would be lost), so wait it out first.
          const pause = Math.max(...states.map((st) => st.pausedUntil));
          if (pause > now) {
            await this.opts.sleep(pause - now, signal);
            continue;
          }
          for (let i = 0; i < slots.length; i++) {
            const st = states[i]!;
            if (slots[i]!.minDelayMs > 0) {
              const got = await shared.take(slots[i]!.key, now, st.delay, signal, places);
              start = Math.max(start, got.at);
              until = Math.min(until, got.until);
              st.nextAt = Math.max(st.nextAt, got.at + st.delay * places); // for readyAt: this process's view
            } else start = Math.max(start, st.nextAt);
          }
          signal?.throwIfAborted();
        } else for (const st of states) start = Math.max(start, st.nextAt, st.pausedUntil);
        for (let i = 0; i < states.length; i++) {
          const st = states[i]!;
          // An ungapped key takes no reservation: a later slot held on another key must not hold
          // it back for everyone else.
          if (st.delay > 0 && !(shared && slots[i]!.minDelayMs > 0)) st.nextAt = start + st.delay * places;
          st.usedAt = start;
        }
        if (start > until) {
          this.expired++; // came back already past its place: the store's answer took longer than a gap
          for (const sl of slots) if (sl.minDelayMs > 0) shared!.expired?.(sl.key);
          continue;
        }
        const now2 = this.opts.now();
        if (start > now2) {
          await this.opts.sleep(start - now2, signal);
          // A pause that began while we slept (429, soft block) moves us behind it.
          if (states.some((st) => st.pausedUntil > this.opts.now())) continue;
        }
        // Waiters whose slots passed while this process was busy all wake at once: a few may go
        // together, the rest reserve again behind the others (a catch-up burst trips the site's limit).
        const t = this.opts.now();
        // A shared start past its place (a late answer from the store, a timer that fired late on
        // a loaded process) would go out beside another process's start: take a new one instead.
        if (t > until) {
          this.expired++;
          for (const sl of slots) if (sl.minDelayMs > 0) shared!.expired?.(sl.key);
          continue;
        }
        if (states.some((st) => st.delay > 0 && t < st.due - CATCH_UP_GAPS * st.delay)) continue;
        for (const st of states) if (st.delay > 0) st.due = Math.max(st.due, t) + st.delay;
        return entered.length ? { paused: 0, done: leave } : NOTHING;
      }
    } catch (e) {
      leave();
      throw e;
    }
  }

  /** A place in flight on `st`: at once when the window has room and nobody queues, else in turn. */
  private enter(st: KeyState, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (st.queue.length === 0 && st.inFlight < st.window) {
      st.inFlight++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const i = st.queue.indexOf(go);
        if (i >= 0) st.queue.splice(i, 1);
        reject(signal!.reason);
      };
      const go = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      st.queue.push(go);
    });
  }

  /** Lets queued requests in while the window has room (`enter` counted them). */
  private pump(st: KeyState): void {
    while (st.queue.length > 0 && st.inFlight < st.window) {
      st.inFlight++;
      st.queue.shift()!();
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
        st.window = Math.min(this.opts.maxInFlight, st.window + 1);
        this.pump(st);
      } else if (outcome === 'error') {
        st.delay = Math.max(st.delay, (st.delay + latencyMs / targetConcurrency) / 2);
      } else if (now - latencyMs < st.backedOffAt) {
        // Sent before the last back-off, answered after it: the same burst, already paid for
        // (TCP halves once per window too). It still extends the pause.
        st.pausedUntil = Math.max(st.pausedUntil, now + (retryAfterMs ?? 0));
        st.nextAt = Math.max(st.nextAt, st.pausedUntil);
      } else {
        st.backedOffAt = now;
        st.window = Math.max(1, Math.ceil(st.window / 2));
        // Backing off from a floor of 0 must still move: start from one latency.
        st.delay = Math.max(st.delay * 2, floor * 2, latencyMs, 1);
        const pause = Math.max(retryAfterMs ?? 0, st.delay);
        st.pausedUntil = Math.max(st.pausedUntil, now + pause);
        st.nextAt = Math.max(st.nextAt, st.pausedUntil);
        this.opts.onBackOff?.(s.key, st.pausedUntil - now, Math.min(maxDelayMs, st.delay));
      }
      st.delay = Math.min(maxDelayMs, Math.max(floor, st.delay));
      st.usedAt = now;
    }
  }

  /**
   * A back-off another process saw on `key`: paused until `until` (this clock), the gap at least
   * `gapMs`. Answers here to requests sent before it count as the same back-off, as for our own.
   *
   * @example pacer.holdOff('maps.example:443|proxy-3', performance.now() + 2000, 84);
   */
  holdOff(key: string, until: number, gapMs: number): void {
    const st = this.keys.get(key);
    if (!st && until <= this.opts.now()) return;
    const s = st ?? this.state({ key, minDelayMs: 0 }, this.opts.now());
    s.backedOffAt = this.opts.now();
    s.delay = Math.min(this.opts.maxDelayMs, Math.max(s.delay, gapMs));
    s.pausedUntil = Math.max(s.pausedUntil, until);
    s.nextAt = Math.max(s.nextAt, s.pausedUntil);
  }

  /** When a key's pause ends (0: never paused; tests, metrics). */
  pausedUntil(key: string): number {
    return this.keys.get(key)?.pausedUntil ?? 0;
  }

  /** The current gap of a key (tests, metrics). */
  delayOf(key: string): number | undefined {
    return this.keys.get(key)?.delay;
  }

  /** Requests a key lets in flight now (tests, metrics). */
  windowOf(key: string): number | undefined {
    return this.keys.get(key)?.window;
  }

  get size(): number {
    return this.keys.size;
  }

  /** Forgets keys idle for a minute whose pause is over: user-given hosts leave no state. */
  private sweep(): void {
    const now = this.opts.now();
    for (const [k, st] of this.keys) if (now - st.usedAt > 60_000 && st.pausedUntil < now && st.nextAt < now && st.held === 0 && st.inFlight === 0 && st.queue.length === 0) this.keys.delete(k);
  }
}
