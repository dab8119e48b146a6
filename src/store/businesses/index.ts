/**
 * The business database of a store: one BusinessStore per Store, on the same database.
 *
 * @example await businessStoreOf(ctx.store).searchBusinesses({ accountId, limit: 10 })
 */
import type { Store } from '../contract.ts';
import type { BusinessStore } from './contract.ts';
import { SqliteStore } from '../sqlite/store.ts';
import { PostgresStore } from '../postgres/store.ts';
import { SqliteBusinessStore } from './sqlite.ts';
import { PostgresBusinessStore } from './postgres.ts';

const parts = new WeakMap<Store, BusinessStore>();

export function businessStoreOf(store: Store): BusinessStore {
  let b = parts.get(store);
  if (!b) {
    if (store instanceof SqliteStore) b = new SqliteBusinessStore(store.db);
    else if (store instanceof PostgresStore) b = new PostgresBusinessStore(store.pool);
    else throw new Error(`no business database for a ${store.kind} store`);
    parts.set(store, b);
  }
  return b;
}
