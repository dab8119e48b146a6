/**
 * What the worker processes of one deployment share to behave like one polite client (issue 35):
 * - **pace slots**: the starts on a pacing key (a host, or a host through one proxy: one IP to the
 *   site), reserved cluster-wide a few at a time (`lease`), each `gapMs` after the one before, none
 *   inside a back-off (`pause`);
 * - **shared states**: key → state with an expiry (a benched proxy, a host's tier, an identity
 *   challenged), read by every process from a change feed (`changes`);
 * - **members**: who is alive (`heartbeat`), so a process cut off from the store can pace at 1/N.
 *
 * Times cross the wire as "ms from now" measured on the store's clock, so processes whose clocks
 * disagree still agree on one order of starts. Three implementations answer the same conformance
 * suite (./conformance.ts): this in-process one, Redis (./redis.ts) and PostgreSQL (./postgres.ts).
 */

/** Starts reserved on one key: `count` of them, the first in `firstInMs`, then every `gapMs`. */
export interface SlotLease {
  firstInMs: number;
  gapMs: number;
  count: number;
  /** How long the key is still paused (0: not paused); the first start is never before its end. */
  pausedForMs: number;
}

/** One shared state as the feed reports it: `value` undefined once it is deleted or expired. */
export interface SharedEntry {
  ns: string;
  key: string;
  value: string;
  /** Left before it expires, on the store's clock at the read. */
  expiresInMs: number;
}

export interface ClusterStore {
  readonly kind: 'memory' | 'redis' | 'postgres';
  /**
   * Reserves `count` starts on `key`: the first at the latest of now, the end of the last lease
   * (its last start plus its gap) and the end of a pause; then one every `gapMs`.
   *
   * @example const l = await store.lease('maps.example:443|proxy-3', 4, 42); // { firstInMs: 0, gapMs: 42, count: 4, pausedForMs: 0 }
   */
  lease(key: string, count: number, gapMs: number): Promise<SlotLease>;
  /** A back-off seen by one process: no lease of `key` starts within `pauseMs` from now. */
  pause(key: string, pauseMs: number): Promise<void>;
  /** Sets a shared state for `ttlMs`. @example await store.put('proxy', 'http://10.0.0.2:3128', '{"o":"w1"}', 30_000) */
  put(ns: string, key: string, value: string, ttlMs: number): Promise<void>;
  /**
   * Shared states set since `cursor` (undefined: every live one), oldest first, and the cursor to
   * ask with next time. An entry may come twice; applying it twice must do nothing more.
   */
  changes(cursor: string | undefined): Promise<{ cursor: string; entries: SharedEntry[] }>;
  /** `id` is alive for `ttlMs` more; returns how many members are alive (this one included). */
  heartbeat(id: string, ttlMs: number): Promise<number>;
  /** `id` stops (a clean shutdown): it no longer counts. */
  leave(id: string): Promise<void>;
  close(): Promise<void>;
}

interface PaceRow { next: number; paused: number }
interface StateRow { value: string; expires: number; version: number }

/**
 * The in-process store: the same rules in one process's memory (a single process, tests). Its
 * `now` is injectable so the conformance suite can run it on a fake clock too.
 */
export class MemoryClusterStore implements ClusterStore {
  readonly kind = 'memory' as const;
  private readonly pace = new Map<string, PaceRow>();
  private readonly states = new Map<string, StateRow>();
  private readonly members = new Map<string, number>();
  private version = 0;

  constructor(private readonly now: () => number = () => performance.now()) {}

  async lease(key: string, count: number, gapMs: number): Promise<SlotLease> {
    const now = this.now();
    const row = this.pace.get(key) ?? { next: 0, paused: 0 };
    const first = Math.max(now, row.next, row.paused);
    row.next = first + count * gapMs;
    this.pace.set(key, row);
    return { firstInMs: first - now, gapMs, count, pausedForMs: Math.max(0, row.paused - now) };
  }

  async pause(key: string, pauseMs: number): Promise<void> {
    const now = this.now();
    const row = this.pace.get(key) ?? { next: 0, paused: 0 };
    row.paused = Math.max(row.paused, now + pauseMs);
    this.pace.set(key, row);
  }

  async put(ns: string, key: string, value: string, ttlMs: number): Promise<void> {
    this.states.set(`${ns}\n${key}`, { value, expires: this.now() + ttlMs, version: ++this.version });
  }

  async changes(cursor: string | undefined): Promise<{ cursor: string; entries: SharedEntry[] }> {
    const since = cursor === undefined ? 0 : Number(cursor);
    const now = this.now();
    const rows: Array<[string, StateRow]> = [];
    for (const [k, r] of this.states) {
      if (r.expires <= now) this.states.delete(k);
      else if (r.version > since) rows.push([k, r]);
    }
    rows.sort((a, b) => a[1].version - b[1].version);
    const entries = rows.map(([k, r]) => {
      const i = k.indexOf('\n');
      return { ns: k.slice(0, i), key: k.slice(i + 1), value: r.value, expiresInMs: r.expires - now };
    });
    return { cursor: String(this.version), entries };
  }

  async heartbeat(id: string, ttlMs: number): Promise<number> {
    const now = this.now();
    this.members.set(id, now + ttlMs);
    for (const [m, until] of this.members) if (until <= now) this.members.delete(m);
    return this.members.size;
  }

  async leave(id: string): Promise<void> {
    this.members.delete(id);
  }

  async close(): Promise<void> {}
}
