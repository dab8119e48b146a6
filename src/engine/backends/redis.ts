/**
 * The Redis work queue through BullMQ: separate worker processes on several machines share one queue.
 *
 * BullMQ carries announcements only; the store stays the authority on every item (src/engine/queue.ts).
 * - One job per announcement of an item, id `<item id>#<attempts made>`: a repeated announcement of the
 *   same attempt is dropped by BullMQ while the job exists, and the retry of attempt n (announced from
 *   inside the running job n) gets a new id, so it is not swallowed by the job still running.
 * - A job is a turn: its processor claims the next item in the store's fair order (`claimItems(owner,
 *   n, leaseMs, now)` for the n jobs that started together, src/store/requests/fairness.ts), which may
 *   be another account's; a job that finds nothing runnable does nothing.
 * - Retries are BullMQ delayed jobs.
 * - A sweeper (every `sweepMs`, one worker per period through a Redis lock) re-announces items the
 *   store says are runnable now: queued and due, or leased with an expired lease. So a job lost with a
 *   Redis restart, a failed announcement or a worker killed mid-job never strands an item.
 * - Lost connections are retried by ioredis forever; the worker resumes by itself.
 *
 * @example
 *   const q = new RedisQueue(store, { url: 'redis://127.0.0.1:6379' });
 *   q.start((item) => runner.run(item), { concurrency: 16, owner: 'w-1', leaseMs: 60_000 });
 *   await q.enqueue([{ id: 'req:0' }]);
 */
import { Queue, Worker, type Job } from 'bullmq';
import { Redis, type RedisOptions } from 'ioredis';
import type { Store, WorkItem } from '../../store/contract.ts';
import type { ConsumeOptions, WorkQueue } from '../queue.ts';
import { runnableItems } from './runnable.ts';

export interface RedisQueueOptions {
  /** redis://[user:password@]host:port[/db] or rediss:// for TLS. */
  url: string;
  /** Prefix of every key (and of connection names). Default 'trawl'. */
  prefix?: string;
  /** BullMQ queue name. Default 'items'. */
  name?: string;
  /** Sweeper period. Default 5000 ms. */
  sweepMs?: number;
  /** Items re-announced per sweep at most (so at most sweepLimit / sweepMs items per ms are recovered after Redis lost its jobs). Default 5000. */
  sweepLimit?: number;
  /** Bound on one announcement round trip before it is given up (the sweeper covers it). Default 5000 ms. */
  enqueueTimeoutMs?: number;
  now?: () => number;
}

interface JobData { id: string }

/**
 * BullMQ lock and stalled-check periods of every trawl worker. A worker killed after BullMQ handed it
 * a job but before it claimed the item leaves that job active under its lock, and the sweeper's
 * re-announcement (same job id) is dropped while it exists; the item runs again only once BullMQ
 * finds the job stalled: lockDuration + stalledInterval (BullMQ's defaults, 30 s + 30 s, stalled the
 * scale-out test for up to a minute). Locks are renewed every lockDuration / 2 in one call for all
 * running jobs. A worker blocked longer than the lock merely loses the job: the store's lease decides.
 *
 * @example new Worker(name, fn, { connection, ...BULLMQ_LOCKS })
 */
export const BULLMQ_LOCKS = { lockDuration: 10_000, stalledInterval: 5_000 } as const;

/** BullMQ rejects ':' in custom job ids; item ids contain it.
 *  @example jobIdFor('9f2c:3', 1) // '9f2c%3A3#1' */
export function jobIdFor(itemId: string, attempts: number): string {
  return `${itemId.replaceAll('%', '%25').replaceAll(':', '%3A')}#${attempts < 0 ? 's' : attempts}`;
}

/** The BullMQ job announcing one item (attempt `attempts`), due after `delayMs` when given. */
function announcement(itemId: string, attempts: number, delayMs?: number) {
  return {
    name: 'item',
    data: { id: itemId },
    opts: { jobId: jobIdFor(itemId, attempts), delay: delayMs && delayMs > 0 ? Math.ceil(delayMs) : undefined, removeOnComplete: true, removeOnFail: true },
  };
}

/** Rate-limited warnings: a Redis outage must not flood the log with one line per command. */
function warner(what: string): (e: unknown) => void {
  let last = 0;
  let dropped = 0;
  return (e) => {
    const t = Date.now();
    if (t - last < 10_000) { dropped++; return; }
    process.emitWarning(`${what}: ${(e as Error)?.message ?? String(e)}${dropped ? ` (${dropped} more since last warning)` : ''}`);
    last = t;
    dropped = 0;
  };
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms); }),
  ]);
}

export class RedisQueue implements WorkQueue {
  readonly kind = 'redis' as const;
  readonly prefix: string;
  readonly name: string;
  private readonly url: string;
  private readonly o: Required<Omit<RedisQueueOptions, 'url' | 'prefix' | 'name'>>;
  /** Producer side and sweeper lock; fails fast while Redis is away instead of queueing commands. */
  private readonly conn: Redis;
  private readonly queue: Queue<JobData>;
  private worker: Worker<JobData> | null = null;
  private workerConn: Redis | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private sweeping = false;
  private stopping: Promise<void> | null = null;
  /** Items this process is running, with their attempt count (for the id of a retry's announcement). */
  private readonly active = new Map<string, number>();
  private readonly warnEnqueue = warner('redis queue: announcement failed, the sweeper will retry');
  private readonly warnSweep = warner('redis queue: sweep failed');
  private readonly warnConn = warner('redis queue: connection');
  private readonly warnRun = warner('redis queue: job failed');
  /** Claims requested by jobs that started in the same turn of the event loop, made in one store call. */
  private claims: { resolve: (it: WorkItem | undefined) => void; reject: (e: unknown) => void }[] = [];
  private claimsScheduled = false;

  constructor(private readonly store: Store, o: RedisQueueOptions) {
    this.prefix = o.prefix ?? 'trawl';
    this.name = o.name ?? 'items';
    if (this.prefix.includes(':') || this.name.includes(':')) throw new Error('redis queue: prefix and name cannot contain ":"');
    this.url = o.url;
    this.o = { sweepMs: o.sweepMs ?? 5_000, sweepLimit: o.sweepLimit ?? 5_000, enqueueTimeoutMs: o.enqueueTimeoutMs ?? 5_000, now: o.now ?? Date.now };
    this.conn = new Redis(o.url, this.connOptions('producer', { maxRetriesPerRequest: 1 }));
    this.conn.on('error', this.warnConn);
    this.queue = new Queue<JobData>(this.name, { connection: this.conn, prefix: this.prefix });
    this.queue.on('error', this.warnConn);
  }

  private connOptions(role: string, extra: RedisOptions): RedisOptions {
    return { connectionName: `${this.prefix}:trawl-${role}`, ...extra };
  }

  async enqueue(items: { id: string; delayMs?: number }[]): Promise<void> {
    if (!items.length) return;
    const jobs = items.map((i) => announcement(i.id, this.active.get(i.id) ?? 0, i.delayMs));
    try {
      // The store already holds the item: a lost announcement only delays it until the next sweep.
      await withTimeout(this.queue.addBulk(jobs), this.o.enqueueTimeoutMs, 'addBulk');
    } catch (e) {
      this.warnEnqueue(e);
    }
  }

  start(run: (item: WorkItem) => Promise<void>, opts: ConsumeOptions): void {
    if (this.worker) throw new Error('redis queue: already started');
    this.stopping = null;
    // Workers block on Redis: BullMQ needs retries without limit on their connection.
    this.workerConn = new Redis(this.url, this.connOptions('worker', { maxRetriesPerRequest: null }));
    this.workerConn.on('error', this.warnConn);
    this.worker = new Worker<JobData>(this.name, (job) => this.process(job, run, opts), {
      connection: this.workerConn,
      prefix: this.prefix,
      concurrency: Math.max(1, opts.concurrency),
      name: opts.owner.replaceAll(':', '_'),
      // The store's lease decides ownership; BullMQ's stalled check only returns jobs of a dead worker
      // to the wait list, and the sweeper covers them anyway.
      maxStalledCount: 5,
      ...BULLMQ_LOCKS,
    });
    this.worker.on('error', this.warnConn);
    this.sweepTimer = setInterval(() => void this.sweep(opts.owner), this.o.sweepMs);
    this.sweepTimer.unref();
    // At start-up: whatever a previous run left runnable.
    void this.sweep(opts.owner, true);
  }

  private async process(job: Job<JobData>, run: (item: WorkItem) => Promise<void>, opts: ConsumeOptions): Promise<void> {
    const id = job.data?.id;
    if (typeof id !== 'string') return;
    let item: WorkItem | undefined;
    try {
      item = await this.claim(opts);
    } catch (e) {
      // Store unreachable: the item stays runnable in the store and a later sweep announces it again.
      this.warnRun(e);
      return;
    }
    if (!item) return;
    this.active.set(item.id, item.attempts);
    try {
      await run(item);
    } catch (e) {
      this.warnRun(e);
    } finally {
      this.active.delete(item.id);
    }
  }

  /**
   * Claims one item (the next in fair order), batched with the other jobs that start in this turn of the event loop:
   * BullMQ often hands several jobs over from one socket read, and one store call (one transaction,
   * one round trip) for all of them is most of the difference to raw BullMQ.
   */
  private claim(opts: ConsumeOptions): Promise<WorkItem | undefined> {
    return new Promise((resolve, reject) => {
      this.claims.push({ resolve, reject });
      if (this.claimsScheduled) return;
      this.claimsScheduled = true;
      setImmediate(() => {
        const batch = this.claims;
        this.claims = [];
        this.claimsScheduled = false;
        // A job is a turn, not a ticket for its own item: the batch claims as many items as it has jobs
        // in the store's fair order (src/store/requests/fairness.ts), so a job of one account's backlog
        // runs another account's waiting item first. Every runnable item keeps a job (the one whose
        // turn took it left its own job to a later item), and the sweeper covers the rest.
        this.store.claimItems(opts.owner, batch.length, opts.leaseMs, this.o.now()).then((items) => {
          batch.forEach((b, i) => b.resolve(items[i]));
        }, (e) => { for (const b of batch) b.reject(e); });
      });
    });
  }

  /** Re-announces runnable items; with `force` it skips the once-per-period lock (start-up). */
  private async sweep(owner: string, force = false): Promise<void> {
    if (this.sweeping || this.stopping || !this.worker) return;
    this.sweeping = true;
    try {
      if (!force) {
        const lock = await this.conn.set(`${this.prefix}:${this.name}:sweeper`, owner, 'PX', Math.max(100, this.o.sweepMs - 50), 'NX');
        if (lock !== 'OK') return;
      }
      const items = await runnableItems(this.store, this.o.now(), this.o.sweepLimit);
      if (!items.length) return;
      await withTimeout(this.queue.addBulk(items.map((i) => announcement(i.id, i.attempts))), this.o.enqueueTimeoutMs, 'sweep addBulk');
    } catch (e) {
      this.warnSweep(e);
    } finally {
      this.sweeping = false;
    }
  }

  /** Re-announce now (tests and operators); normally the timer does it. */
  async sweepNow(owner = 'manual'): Promise<void> {
    await this.sweep(owner, true);
  }

  async stop(): Promise<void> {
    this.stopping ??= (async () => {
      if (this.sweepTimer) clearInterval(this.sweepTimer);
      this.sweepTimer = null;
      const w = this.worker;
      // close() stops fetching and waits for the jobs being processed.
      if (w) await w.close();
      this.worker = null;
      if (this.workerConn) await this.workerConn.quit().catch(() => this.workerConn?.disconnect());
      this.workerConn = null;
    })();
    await this.stopping;
  }

  async depth(): Promise<number> {
    const c = await this.queue.getJobCounts('wait', 'delayed', 'prioritized', 'paused');
    return Object.values(c).reduce((a, b) => a + b, 0);
  }

  async ping(): Promise<void> {
    await this.conn.ping();
  }

  async close(): Promise<void> {
    await this.stop();
    // BullMQ checks the connection (server version) after the queue is made; a quit while that check
    // is in flight fails it with "Connection is closed", emitted where no listener is left once the
    // queue is closed: an uncaught error that crashed a short process (`trawl migrate`, 1 in 20 runs).
    await this.queue.waitUntilReady().catch(() => {});
    await this.queue.close().catch(() => {});
    await this.conn.quit().catch(() => this.conn.disconnect());
  }

  /** Deletes every key of this queue (tests, or resetting a deployment). The store is not touched. */
  async obliterate(): Promise<void> {
    await this.queue.obliterate({ force: true });
    await this.conn.del(`${this.prefix}:${this.name}:sweeper`);
  }
}
