/**
 * "Which items could a worker claim right now?" for queue backends that must re-announce work their
 * broker lost (Redis flushed or restarted, a worker died holding jobs). The Store contract only has
 * `queuedItemIds` (every queued or leased id, due or not, without attempts), so this uses a store's
 * own `runnableItems` when it has one (PostgresStore does), reads the SQLite store's tables directly,
 * and falls back to `queuedItemIds` otherwise.
 *
 * @example
 *   for (const { id, attempts } of await runnableItems(store, Date.now(), 500)) announce(id, attempts);
 */
import type Database from 'better-sqlite3';
import type { Store } from '../../store/contract.ts';

export interface RunnableItem {
  id: string;
  /** Claims made so far; -1 when the store cannot tell. */
  attempts: number;
}

interface WithRunnable { runnableItems(now: number, limit: number): Promise<RunnableItem[]> }

const sqliteStatements = new WeakMap<Database.Database, Database.Statement>();

export async function runnableItems(store: Store, now: number, limit: number): Promise<RunnableItem[]> {
  const own = (store as Partial<WithRunnable>).runnableItems;
  if (typeof own === 'function') return own.call(store, now, limit);
  const db = store.kind === 'sqlite' ? (store as { db?: Database.Database }).db : undefined;
  if (db && typeof db.prepare === 'function') {
    let st = sqliteStatements.get(db);
    if (!st) {
      st = db.prepare(`SELECT id, attempts FROM (SELECT id, attempts FROM work_items WHERE state = 'queued' AND run_after <= @now ORDER BY run_after LIMIT @limit)
                       UNION ALL
                       SELECT id, attempts FROM (SELECT id, attempts FROM work_items WHERE state = 'leased' AND lease_until < @now LIMIT @limit)
                       LIMIT @limit`);
      sqliteStatements.set(db, st);
    }
    return (st.all({ now, limit }) as RunnableItem[]).map((r) => ({ id: r.id, attempts: r.attempts }));
  }
  return (await store.queuedItemIds(limit)).map((id) => ({ id, attempts: -1 }));
}
