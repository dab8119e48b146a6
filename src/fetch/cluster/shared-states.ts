/**
 * Shared states: key → state with an expiry, in namespaces ('proxy' benches, 'tier' of a host,
 * 'pause' of a pacing key, an identity's health). Set by one process, seen by every process of the
 * cluster within about a second (./link.ts); `LocalStates` is the same thing for one process.
 *
 * Any part of the executor that learns something every process should know (a signed-in identity
 * challenged, an account benched) calls `set`, and reads with `get` before it uses the thing;
 * `on` tells it what other processes set, as it arrives.
 *
 * @example
 *   shared.set('identity', 'maps/account-3', 'challenged', 15 * 60_000);
 *   if (shared.get('identity', 'maps/account-3')) skip();
 */
export interface SharedState {
  value: string;
  /** When it expires, on this process's `performance.now()` clock. */
  until: number;
}

export interface SharedStates {
  /** Sets `ns`/`key` to `value` for `ttlMs`, here at once and in the other processes soon. */
  set(ns: string, key: string, value: string, ttlMs: number): void;
  /** The live state of `ns`/`key`, from this process or another; undefined when none or expired. */
  get(ns: string, key: string): SharedState | undefined;
  /** Calls `fn` for each state another process sets in `ns`; returns the unsubscribe. */
  on(ns: string, fn: (key: string, state: SharedState) => void): () => void;
}

/** Shared states of one process: a map with expiries (`on` never fires: nobody else sets). */
export class LocalStates implements SharedStates {
  protected readonly states = new Map<string, SharedState>();
  private sets = 0;

  constructor(protected readonly now: () => number = () => performance.now()) {}

  set(ns: string, key: string, value: string, ttlMs: number): void {
    this.remember(ns, key, { value, until: this.now() + ttlMs });
  }

  get(ns: string, key: string): SharedState | undefined {
    const s = this.states.get(`${ns}\n${key}`);
    if (!s) return undefined;
    if (s.until > this.now()) return s;
    this.states.delete(`${ns}\n${key}`);
    return undefined;
  }

  on(_ns: string, _fn: (key: string, state: SharedState) => void): () => void {
    return () => undefined;
  }

  protected remember(ns: string, key: string, s: SharedState): void {
    this.states.set(`${ns}\n${key}`, s);
    // Expired states of keys never read again go now and then: user-given hosts leave no state.
    if (++this.sets % 1024 === 0) {
      const now = this.now();
      for (const [k, v] of this.states) if (v.until <= now) this.states.delete(k);
    }
  }
}
