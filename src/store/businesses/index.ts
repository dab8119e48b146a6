/**
 * The business database of a store: one BusinessStore per Store, on the same database.
 *
 * @example await businessStoreOf(ctx.store).searchBusinesses({ accountId, limit: 10 })
 */
import type { Store } from '../contract.ts';
import type { BusinessStore } from './contract.ts';
import type { SqliteStore } from '../sqlite/store.ts';
import type { PostgresStore } from '../postgres/store.ts';
import { SqliteBusinessStore } from './sqlite.ts';
import { PostgresBusinessStore } from './postgres.ts';

const parts = new WeakMap<Store, BusinessStore>();

export function businessStoreOf(store: Store): BusinessStore {
  let b = parts.get(store);
  if (!b) {
    // By kind, not instanceof: importing the store classes here would load both drivers at start-up.
    if (store.kind === 'sqlite') b = new SqliteBusinessStore((store as SqliteStore).db);
    else if (store.kind === 'postgres') b = new PostgresBusinessStore((store as PostgresStore).pool, store as PostgresStore);
    else throw new Error(`no business database for a ${store.kind} store`);
    parts.set(store, b);
  }
  return b;
}
