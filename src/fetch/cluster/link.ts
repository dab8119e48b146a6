/**
 * One process's link to the cluster store (./store.ts): what makes N worker processes one polite
 * client (docs/executor.md, "One client across processes").
 *
 * - **Slots** (`take`): the pacer asks for each start on a capped key; waiters of one key in one
 *   process share a lease of up to `maxLease` consecutive starts (one round trip for a few requests,
 *   never more than `maxLeaseMs` of them), and ask for the next lease only once the last one has
 *   begun. A start this process took and did not use is lost, never given twice: a process that
 *   dies holds at most the rest of its current lease and the one after it.
 * - **A start expires** at the end of its own gap, counted from when the lease was asked for (the
 *   store reserved it no earlier): a start used later would be sent in the next holder's gap, two
 *   requests at once to the site. A loaded process whose answer came back late, or whose timer
 *   fired late, takes a new start instead (the pacer does: `SlotStart.until`).
 * - **Shared states** (`set`/`get`/`on`, ./shared-states.ts): written through at once, read from
 *   the store's change feed every `pollMs` (250 ms: every process sees a bench within about a second).
 * - **Members**: a heartbeat every `heartbeatMs` counts the processes alive.
 * - **Outage**: when a call to the store fails, or does not answer within `timeoutMs` (5 s: a slow
 *   answer from a loaded process is not an outage, and its starts expire rather than run late),
 *   this process paces alone at 1/N of each key's rate (N the processes alive at the last
 *   heartbeat, so the cluster stays at or under the rate), logs it once, and goes back to the store
 *   when a heartbeat answers again. Going back, it first holds each key it paced alone in the store
 *   until its last start alone has passed (and at least two heartbeats, while the others notice
 *   the store is back and do the same): the starts it took alone never run beside new leases.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { ClusterStore, SlotLease } from './store.ts';
import { LocalStates, type SharedState, type SharedStates } from './shared-states.ts';

/** How long a call to the store may take before this process paces alone (ClusterLinkOptions.timeoutMs):
 *  a slow answer from a loaded process is not an outage. The PostgreSQL store's pool waits as long
 *  (./postgres.ts), so this is the one limit that decides. */
export const STORE_TIMEOUT_MS = 5000;

export interface LinkLog {
  warn(o: object, msg: string): void;
  info(o: object, msg: string): void;
}

export interface ClusterLinkOptions {
  /** This process's member id (default: host:pid:random). */
  id?: string;
  /** Most starts one lease reserves (default 4). */
  maxLease?: number;
  /** Most time one lease covers (default 1000 ms): a slow key leases fewer starts. */
  maxLeaseMs?: number;
  /** Change feed poll (default 250 ms). */
  pollMs?: number;
  /** Heartbeat (default 1000 ms); a member counts for three of them. */
  heartbeatMs?: number;
  /** Longest wait for the store before pacing alone (default 5000 ms). */
  timeoutMs?: number;
  /** Least time a start may be used after its place (default 50 ms; a slow key: its gap). */
  lateMs?: number;
  log?: LinkLog;
  now?: () => number;
}

/** A start reserved on a shared key, local times (`performance.now()`): send at `at`, and not
 *  after `until` (the end of its place: later, it is the next holder's; take another). */
export interface SlotStart {
  at: number;
  until: number;
}

/** Where the pacer gets a start on a shared key, no earlier than `earliest`, `places` gaps
 *  (a fraction too: the store counts time) before the next one; rejects with the signal's reason when it is aborted before a start was
 *  reserved for it (it then takes none). */
export interface SlotSource {
  take(key: string, earliest: number, gapMs: number, signal?: AbortSignal, places?: number): Promise<SlotStart>;
  /** A start came or woke past its place and was not used (counted). */
  expired?(key: string): void;
}

interface Waiter {
  earliest: number;
  gap: number;
  places: number;
  resolve: (s: SlotStart) => void;
}

interface KeyLeases {
  pending: Waiter[];
  busy: boolean;
}

/** Counters for metrics and the bench. */
export interface LinkStats {
  leases: number;
  starts: number;
  localStarts: number;
  storeErrors: number;
  /** Leases whose answer came back too late to use any of their starts. */
  lateLeases: number;
  /** Starts the pacer did not use: they came or woke past their place. */
  expired: number;
  /** Gaps leased (a start that opens a connection takes two). */
  places: number;
}

export class ClusterLink extends LocalStates implements SharedStates, SlotSource {
  readonly id: string;
  readonly stats: LinkStats = { leases: 0, starts: 0, localStarts: 0, storeErrors: 0, lateLeases: 0, expired: 0, places: 0 };
  private readonly o: Required<Omit<ClusterLinkOptions, 'log' | 'id' | 'now'>>;
  private readonly keys = new Map<string, KeyLeases>();
  /** Degraded pacing: the next start this process may take per key. */
  private readonly alone = new Map<string, number>();
  /** The end of the last lease seen per key (where the cluster's next start is, at least). */
  private readonly clusterNext = new Map<string, number>();
  /** When this process's last lease per key begins: the next lease is asked for from then on. */
  private readonly leaseBegins = new Map<string, number>();
  private readonly listeners = new Map<string, Set<(key: string, s: SharedState) => void>>();
  private cursor: string | undefined;
  private timers: NodeJS.Timeout[] = [];
  private membersSeen = 1;
  private down = false;
  private downAt = 0;
  private closed = false;
  private polling = false;

  constructor(readonly store: ClusterStore, private readonly opts: ClusterLinkOptions = {}) {
    super(opts.now);
    this.id = opts.id ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
    this.o = { maxLease: 4, maxLeaseMs: 1000, pollMs: 250, heartbeatMs: 1000, timeoutMs: STORE_TIMEOUT_MS, lateMs: 50, ...stripUndefined(opts) };
  }

  /** True when starts come from the store (false for the in-process store: the pacer reserves itself). */
  get shared(): boolean {
    return this.store.kind !== 'memory';
  }

  /** Processes alive at the last heartbeat (this one included). */
  get members(): number {
    return this.membersSeen;
  }

  /** True while the store does not answer and this process paces alone. */
  get degraded(): boolean {
    return this.down;
  }

  /** First heartbeat and feed read, then the timers (which never keep the process alive). */
  async start(): Promise<void> {
    await this.beat();
    await this.poll();
    const every = (ms: number, fn: () => Promise<void>) => {
      const t = setInterval(() => void fn(), ms);
      t.unref();
      this.timers.push(t);
    };
    every(this.o.heartbeatMs, () => this.beat());
    every(this.o.pollMs, () => this.poll());
  }

  take(key: string, earliest: number, gapMs: number, signal?: AbortSignal, places = 1): Promise<SlotStart> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.down || !this.shared) return Promise.resolve(this.startAlone(key, earliest, gapMs, places));
    let k = this.keys.get(key);
    if (!k) this.keys.set(key, (k = { pending: [], busy: false }));
    const q = k;
    return new Promise((resolve, reject) => {
      // A waiter that gives up leaves the queue: a lease asked for it would be a start nobody sends,
      // a gap in the site's traffic that every process waits through.
      const onAbort = () => {
        const i = q.pending.indexOf(w);
        if (i >= 0) q.pending.splice(i, 1);
        reject(signal!.reason);
      };
      const w: Waiter = { earliest, gap: gapMs, places, resolve: (st) => { signal?.removeEventListener('abort', onAbort); resolve(st); } };
      signal?.addEventListener('abort', onAbort, { once: true });
      q.pending.push(w);
      if (!q.busy) void this.flush(key, q);
    });
  }

  expired(): void {
    this.stats.expired++;
  }

  /** Where this process believes the key's next cluster start is (for choosing the least busy proxy). */
  nextStart(key: string): number {
    return this.clusterNext.get(key) ?? 0;
  }

  private async flush(key: string, q: KeyLeases): Promise<void> {
    q.busy = true;
    try {
      while (q.pending.length > 0) {
        // One lease ahead at most: the next is asked for once the last one has begun, so a process
        // that dies holds the rest of its current lease and one more, never a queue of them.
        const wait = (this.leaseBegins.get(key) ?? 0) - this.now();
        if (wait > 0 && !this.down) await new Promise((r) => setTimeout(r, wait));
        const gap = Math.max(...q.pending.slice(0, this.o.maxLease).map((w) => w.gap));
        const n = Math.max(1, Math.min(this.o.maxLease, q.pending.length, gap > 0 ? Math.floor(this.o.maxLeaseMs / gap) : this.o.maxLease));
        const batch = q.pending.splice(0, n);
        if (this.down) {
          for (const w of batch) w.resolve(this.startAlone(key, w.earliest, w.gap, w.places));
          continue;
        }
        const count = batch.reduce((a, w) => a + w.places, 0);
        let lease: SlotLease;
        const asked = this.now();
        try {
          lease = await this.timed(this.store.lease(key, count, gap));
        } catch (e) {
          this.fail(e);
          for (const w of batch) w.resolve(this.startAlone(key, w.earliest, w.gap, w.places));
          continue;
        }
        // The store's "in so many ms" from the moment its answer is here: a start is never early
        // by the answer's way back, only late by it. Its place ends a gap after where the store
        // put it, at the latest the asking plus the wait: an answer that took longer than a gap
        // comes with starts already past (a loaded process), which the pacer replaces.
        const base = this.now() + lease.firstInMs;
        const place = asked + lease.firstInMs;
        const span = Math.max(gap, this.o.lateMs);
        this.stats.leases++;
        this.stats.starts += batch.length;
        this.stats.places += count;
        if (base > place + span) this.stats.lateLeases++;
        this.clusterNext.set(key, base + count * gap);
        this.leaseBegins.set(key, base);
        let offset = 0;
        for (const w of batch) {
          w.resolve({ at: base + offset, until: place + offset + span });
          offset += w.places * gap;
        }
      }
    } finally {
      q.busy = false;
    }
    if (this.keys.size > 4096) {
      const now = this.now();
      for (const [k, v] of this.keys) {
        if (v.busy || v.pending.length > 0 || (this.clusterNext.get(k) ?? 0) > now) continue;
        this.keys.delete(k);
        this.clusterNext.delete(k);
        this.leaseBegins.delete(k);
        this.alone.delete(k);
      }
    }
  }

  private startAlone(key: string, earliest: number, gapMs: number, places: number): SlotStart {
    const at = this.takeAlone(key, earliest, gapMs, places);
    return { at, until: at + Math.max(gapMs, this.o.lateMs) };
  }

  /**
   * A start reserved by this process alone, 1/N of the key's rate: the others pace the same way.
   * The first one on a key waits out the starts the others may still hold from the store (each at
   * most two leases), so the old reservations and the new alone pace never overlap into a burst.
   */
  private takeAlone(key: string, earliest: number, gapMs: number, places: number): number {
    const now = this.now();
    const n = Math.max(1, this.membersSeen);
    let next = this.alone.get(key);
    if (next === undefined) {
      const span = Math.min(this.o.maxLeaseMs, this.o.maxLease * gapMs);
      next = Math.max(this.clusterNext.get(key) ?? 0, this.downAt) + 2 * (n - 1) * span;
    }
    const at = Math.max(now, earliest, next);
    this.alone.set(key, at + gapMs * n * places);
    this.stats.localStarts++;
    return at;
  }

  /** A back-off seen here holds every process: the store's key and the feed's 'pause' state. */
  pause(key: string, pauseMs: number, gapMs: number): void {
    this.set('pause', key, String(gapMs), pauseMs);
    if (this.shared && !this.down) this.timed(this.store.pause(key, pauseMs)).catch((e) => this.fail(e));
  }

  override set(ns: string, key: string, value: string, ttlMs: number): void {
    super.set(ns, key, value, ttlMs);
    if (this.shared && !this.down) this.timed(this.store.put(ns, key, `${this.id}\t${value}`, ttlMs)).catch((e) => this.fail(e));
  }

  override on(ns: string, fn: (key: string, state: SharedState) => void): () => void {
    let set = this.listeners.get(ns);
    if (!set) this.listeners.set(ns, (set = new Set()));
    set.add(fn);
    return () => set!.delete(fn);
  }

  /** Reads the change feed once: states other processes set reach `get` and the listeners. */
  async poll(): Promise<void> {
    if (!this.shared || this.down || this.polling || this.closed) return;
    this.polling = true;
    try {
      const { cursor, entries } = await this.timed(this.store.changes(this.cursor));
      this.cursor = cursor;
      const now = this.now();
      for (const e of entries) {
        const tab = e.value.indexOf('\t');
        if (tab < 0 || e.value.slice(0, tab) === this.id) continue; // our own (set locally already)
        const s: SharedState = { value: e.value.slice(tab + 1), until: now + e.expiresInMs };
        const mine = this.states.get(`${e.ns}\n${e.key}`);
        if (mine && mine.value === s.value && Math.abs(mine.until - s.until) < 50) continue; // read again (PostgreSQL's feed overlaps)
        this.remember(e.ns, e.key, s);
        for (const fn of this.listeners.get(e.ns) ?? []) {
          try {
            fn(e.key, s);
          } catch {
            // one listener's fault must not stop the feed
          }
        }
      }
    } catch (e) {
      this.fail(e);
    } finally {
      this.polling = false;
    }
  }

  private async beat(): Promise<void> {
    if (!this.shared || this.closed) return;
    try {
      this.membersSeen = await this.timed(this.store.heartbeat(this.id, this.o.heartbeatMs * 3));
      if (this.down) {
        await this.holdAloneStarts();
        this.down = false;
        this.alone.clear();
        this.opts.log?.info({ members: this.membersSeen }, 'cluster store answers again: pacing is shared again');
      }
    } catch (e) {
      this.fail(e);
    }
  }

  /**
   * Before leasing again: each key this process paced alone is held in the store until its last
   * start alone has passed, and for two heartbeats at least (the others, still alone until their
   * next heartbeat, hold theirs in that time). Starts taken alone were never in the store: without
   * this, a lease would put new starts beside them. Throws (the process stays alone) if the store
   * fails meanwhile.
   */
  private async holdAloneStarts(): Promise<void> {
    const now = this.now();
    await Promise.all([...this.alone].map(([key, next]) => this.timed(this.store.pause(key, Math.max(next - now, 2 * this.o.heartbeatMs)))));
  }

  private fail(e: unknown): void {
    this.stats.storeErrors++;
    if (this.down || this.closed) return;
    this.down = true;
    this.downAt = this.now();
    this.opts.log?.warn({ err: (e as Error)?.message ?? String(e), members: this.membersSeen, store: this.store.kind },
      `cluster store unreachable: each process paces alone at 1/${this.membersSeen} of every key's rate until it answers`);
  }

  private timed<T>(p: Promise<T>): Promise<T> {
    let timer!: NodeJS.Timeout;
    return Promise.race([
      p.finally(() => clearTimeout(timer)),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`cluster store (${this.store.kind}): no answer within ${this.o.timeoutMs} ms`)), this.o.timeoutMs);
      }),
    ]);
  }

  /** Stops the timers and leaves the members (a clean stop does not count as alive); the store's
   *  owner (the backends) closes the store. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.opts.log?.info({ ...this.stats, members: this.membersSeen }, 'cluster link closing: starts leased, paced alone, expired');
    for (const t of this.timers) clearInterval(t);
    if (this.shared && !this.down) await this.timed(this.store.leave(this.id)).catch(() => undefined);
  }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
