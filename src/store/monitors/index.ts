/**
 * The monitors of a store: one MonitorStore per Store, on the same database.
 *
 * @example await monitorStoreOf(ctx.store).listMonitors(accountId, { limit: 20 })
 */
import type { Store } from '../contract.ts';
import type { MonitorStore } from './contract.ts';
import type { SqliteStore } from '../sqlite/store.ts';
import type { PostgresStore } from '../postgres/store.ts';
import { SqliteMonitorStore } from './sqlite.ts';
import { PostgresMonitorStore } from './postgres.ts';

const parts = new WeakMap<Store, MonitorStore>();

export function monitorStoreOf(store: Store): MonitorStore {
  let m = parts.get(store);
  if (!m) {
    if (store.kind === 'sqlite') m = new SqliteMonitorStore((store as SqliteStore).db);
    else if (store.kind === 'postgres') m = new PostgresMonitorStore((store as PostgresStore).h);
    else throw new Error(`no monitors for a ${store.kind} store`);
    parts.set(store, m);
  }
  return m;
}
