/**
 * The work-queue contract (DESIGN.md principle 4). The store holds every work item's state; a queue
 * only decides which worker runs which runnable item and when. Backends: embedded (polls the store,
 * in process), Redis through BullMQ, PostgreSQL. All pass src/engine/conformance.ts.
 *
 * A backend hands a worker an item only after the store leased it to that worker (`store.claimItems`,
 * or the request's insert: `store.leaseAtInsert`), so the store's lease is the single source of truth
 * and a queue that delivers twice is harmless.
 *
 * @example
 *   const q = new EmbeddedQueue(store);
 *   q.start(async (item) => runner.run(item), { concurrency: 8, owner: 'w-1', leaseMs: 60_000 });
 *   await q.enqueue([{ id: 'req:0' }]);
 */
import type { WorkItem } from '../store/contract.ts';

export interface ConsumeOptions {
  /** Items run at once by this process. */
  concurrency: number;
  /** Lease owner name: unique per worker process. */
  owner: string;
  leaseMs: number;
}

/**
 * A run of one item. `slotFree`, when the queue gives it: the run calls it once its item is ended in
 * the store and only derived work is left (the business capture), so the queue may start another item
 * in its slot meanwhile (issue 37: a synchronous client's next submit found every slot held by runs
 * in their capture, its insert could not lease, and a claim followed). A queue that does not give
 * it frees the slot at the run's end; one that does still waits for the run at stop().
 */
export type RunItem = (item: WorkItem, slotFree?: () => void) => Promise<void>;

export interface WorkQueue {
  readonly kind: 'embedded' | 'redis' | 'postgres';
  /** Announces runnable items; `delayMs` for a retry with backoff. */
  enqueue(items: { id: string; delayMs?: number }[]): Promise<void>;
  /** Starts handing leased items to `run` (which completes or fails them in the store). */
  start(run: RunItem, opts: ConsumeOptions): void;
  /** Stops taking items and waits for the running ones (graceful shutdown). */
  stop(): Promise<void>;
  /** Items waiting to run (metrics). */
  depth(): Promise<number>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
