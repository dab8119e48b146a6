/**
 * The embedded queue: workers claim runnable items straight from the store. New submissions wake the
 * loop at once; a slow poll picks up retries whose backoff ended and leases that expired (a crashed
 * process's items, after a restart), and items another process announced to its own queue.
 *
 * A run's end claims again only while the store may hold more than the last claim took (it filled
 * every free slot, or items were announced since): once a claim came back short the queue was empty,
 * and the claim a run's end made then found nothing, one fair-order read of the store per query
 * for nothing (issue 37).
 *
 * On a store whose inserts lease, a run frees its slot early when it says its item is ended in the
 * store (`slotFree`, ../queue.ts): the next item starts, or the next submit's insert leases, while its
 * business capture finishes. At most `concurrency` runs are past their
 * slot at once (beyond that a run keeps its slot to its end, so the captures waiting stay bounded),
 * and stop() waits for them as for the running ones.
 *
 * On a store that can (RequestStore.leaseAtInsert: PostgreSQL), a request's insert leases its items
 * to this queue when it has a free slot for each and nothing else is due, and they run at once: no
 * claim follows their announcement (issue 37: on the service bench the claim was a second statement
 * for every two queries).
 */
import type { InsertLease, Store, WorkItem } from '../../store/contract.ts';
import type { ConsumeOptions, RunItem, WorkQueue } from '../queue.ts';

export class EmbeddedQueue implements WorkQueue {
  readonly kind = 'embedded' as const;
  private running = 0;
  /** Runs that freed their slot (slotFree) and have not ended yet. */
  private past = 0;
  private stopped = true;
  private timer: NodeJS.Timeout | null = null;
  private pumping = false;
  private again = false;
  /** The store may hold runnable items this queue has not claimed: set by an announcement, a claim
   *  that filled every free slot, or the poll; cleared by a claim that came back short. */
  private backlog = true;
  private idle: (() => void)[] = [];
  /** Items leased to this queue by their insert, not announced yet: their announcement claims nothing. */
  private readonly handed = new Set<string>();
  private stopLeasing: (() => void) | null = null;
  private run: RunItem | null = null;
  private opts: ConsumeOptions | null = null;

  constructor(private readonly store: Store, private readonly pollMs = 200, private readonly now: () => number = Date.now) {}

  async enqueue(items: { id: string; delayMs?: number }[]): Promise<void> {
    if (this.stopped) return;
    items = this.unhanded(items);
    if (!items.length) return;
    const soonest = Math.min(...items.map((i) => i.delayMs ?? 0));
    if (soonest <= 0) this.wake();
    else setTimeout(() => this.wake(), soonest).unref();
  }

  start(run: RunItem, opts: ConsumeOptions): void {
    this.run = run;
    this.opts = opts;
    this.stopped = false;
    this.timer = setInterval(() => this.wake(), this.pollMs);
    this.timer.unref();
    this.stopLeasing = this.store.leaseAtInsert?.(this.insertLease(opts)) ?? null;
    this.wake();
  }

  /** Of announced items, those this queue was not handed by their insert: only those may need a claim. */
  unhanded<T extends { id: string }>(items: T[]): T[] {
    return items.filter((i) => !this.handed.delete(i.id));
  }

  /** This queue's free slots, as the store's inserts see them (RequestStore.leaseAtInsert). */
  private insertLease(opts: ConsumeOptions): InsertLease {
    return {
      owner: opts.owner, leaseMs: opts.leaseMs, now: this.now,
      // Held slots count as running: a claim does not fill them meanwhile, and stop() waits for them.
      reserve: (n) => {
        if (this.stopped || opts.concurrency - this.running < n) return false;
        this.running += n;
        return true;
      },
      take: (items, n) => {
        for (const it of items) {
          this.handed.add(it.id);
          this.begin(it);
        }
        this.freed(n - items.length);
      },
    };
  }

  /** Something may be runnable: claim. */
  private wake(): void {
    this.backlog = true;
    this.pump();
  }

  /** Fills free slots; re-entrant calls collapse into one more round. */
  private pump(): void {
    if (this.stopped || !this.run || !this.opts) return;
    if (this.pumping) { this.again = true; return; }
    this.pumping = true;
    void (async () => {
      try {
        do {
          this.again = false;
          const free = this.opts!.concurrency - this.running;
          if (free <= 0 || !this.backlog) break;
          // Cleared before the claim: an announcement while it runs sets it again (and `again`).
          this.backlog = false;
          const items = await this.store.claimItems(this.opts!.owner, free, this.opts!.leaseMs, this.now());
          for (const it of items) this.launch(it);
          if (items.length === free) this.again = this.backlog = true;
        } while (this.again && !this.stopped);
      } catch (e) {
        // A store outage must not kill the loop: the poll timer tries again.
        this.backlog = true;
        process.emitWarning(`embedded queue: claim failed: ${(e as Error).message}`);
      } finally {
        this.pumping = false;
      }
    })();
  }

  private launch(item: WorkItem): void {
    this.running++;
    this.begin(item);
  }

  /** Runs an item in a slot already counted in `running`. */
  private begin(item: WorkItem): void {
    let held = true;
    // Only where inserts lease (this.stopLeasing): the early slot is for the next submit's insert. On a
    // store without (SQLite) it only raised how many queries run at once, for no gain measured
    // (docs/performance/service.md, session 25, svcQ).
    const slotFree = !this.stopLeasing ? undefined : () => {
      if (!held || this.past >= this.opts!.concurrency) return;
      held = false;
      this.past++;
      this.freed(1);
    };
    this.run!(item, slotFree)
      .catch((e) => process.emitWarning(`embedded queue: run failed: ${(e as Error).message}`))
      .finally(() => {
        this.handed.delete(item.id);
        if (held) return this.freed(1);
        this.past--;
        this.settled();
      });
  }

  private freed(n: number): void {
    if (n <= 0) return;
    this.running -= n;
    this.settled();
    this.pump();
  }

  /** stop()'s waiters, once no run is in a slot or past it. */
  private settled(): void {
    if (this.running === 0 && this.past === 0) for (const f of this.idle.splice(0)) f();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopLeasing?.();
    this.stopLeasing = null;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.running > 0 || this.past > 0) await new Promise<void>((r) => this.idle.push(r));
  }

  async depth(): Promise<number> {
    return (await this.store.itemCounts()).queued;
  }

  async ping(): Promise<void> {
    await this.store.ping();
  }

  async close(): Promise<void> {
    await this.stop();
  }
}
