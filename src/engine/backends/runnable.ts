/**
 * "Which items could a worker claim right now?" for queue backends that must re-announce work their
 * broker lost (Redis flushed or restarted, a worker died holding jobs). A store's own `runnableItems`
 * answers it (both stores have one); a store without it falls back to `queuedItemIds` (every queued
 * or leased id, due or not, without attempts).
 *
 * @example
 *   for (const { id, attempts } of await runnableItems(store, Date.now(), 500)) announce(id, attempts);
 */
import type { Store } from '../../store/contract.ts';

export interface RunnableItem {
  id: string;
  /** Claims made so far; -1 when the store cannot tell. */
  attempts: number;
}

export async function runnableItems(store: Store, now: number, limit: number): Promise<RunnableItem[]> {
  if (store.runnableItems) return store.runnableItems(now, limit);
  return (await store.queuedItemIds(limit)).map((id) => ({ id, attempts: -1 }));
}
