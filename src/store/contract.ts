/**
 * The storage contract (DESIGN.md principle 5). Every backend (SQLite embedded, PostgreSQL at scale)
 * implements it and passes the same conformance suite (src/store/conformance.ts).
 *
 * The store is made of parts, one per kind of data (issue 16), each with its own contract, its own
 * file per backend and its own conformance section:
 *   accounts/  accounts and API keys          billing/   prices, usage lines, direct charges
 *   requests/  requests and work items        results/   query results and checkpoints
 *   webhooks/  webhook deliveries and calls   tasks/     tasks and their export files
 *   businesses/  the business database (reached through businessStoreOf, not part of Store)
 * A completion crosses parts (results, usage and the webhook row in the item's transaction): each
 * backend's parts share one handle (sqlite/handle.ts, postgres/handle.ts) so one part's writes can
 * run inside a transaction another part opened.
 *
 * All times are Unix milliseconds passed in by the caller (`now`), so a test clock can drive expiry,
 * leases and retries. Methods are async so a networked backend fits the same shape.
 *
 * Money is integer micros, millionths of the account's currency unit (src/billing/money.ts); every
 * money field says so in its name.
 */
import type { AccountStore } from './accounts/contract.ts';
import type { BillingStore } from './billing/contract.ts';
import type { RequestStore } from './requests/contract.ts';
import type { ResultStore } from './results/contract.ts';
import type { TaskStore } from './tasks/contract.ts';
import type { WebhookStore } from './webhooks/contract.ts';

export type * from './accounts/contract.ts';
export type * from './billing/contract.ts';
export type * from './requests/contract.ts';
export type * from './results/contract.ts';
export type * from './tasks/contract.ts';
export type * from './webhooks/contract.ts';

/** What the store is as a whole, beyond its parts. */
export interface StoreCore {
  readonly kind: 'sqlite' | 'postgres';
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** Cheap reachability check for /ready. */
  ping(): Promise<void>;
  /** Optional: bytes the stored data takes on disk, free space the store reuses left out (DATA_MAX_BYTES, issue 15). */
  sizeBytes?(): Promise<number>;
  /** A per-deployment secret (created on first use, the same for every process on this store). */
  secret(name: string): Promise<string>;
}

export interface Store extends StoreCore, AccountStore, BillingStore, RequestStore, ResultStore, WebhookStore, TaskStore {}
