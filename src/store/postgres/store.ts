/**
 * The store at scale: PostgreSQL through a `pg` Pool, same contract and same behaviour as the SQLite
 * store (src/store/sqlite/store.ts). Row locks stand in for SQLite's one-transaction-at-a-time; the
 * lock order that keeps them from waiting on each other in a circle is explained in ./items.ts.
 *
 * This class is the composition of the store's parts (issue 16), one file each, over one shared
 * handle (./handle.ts: pool, prepared statements, transactions, durable writes): accounts.ts,
 * billing.ts, requests.ts and items.ts (with complete-item.ts), results.ts, webhooks.ts, tasks.ts;
 * the business database is reached apart (../businesses).
 *
 * Connection loss surfaces as StoreUnavailableError (see errors.ts); the pool reconnects by itself.
 *
 * @example
 *   const store = await openPostgresStore('postgres://postgres@127.0.0.1:5432/trawl');
 *   const acct = await store.getAccount('a1');
 */
import type pg from 'pg';
import { randomBytes } from 'node:crypto';
import type { AccountStore } from '../accounts/contract.ts';
import type { BillingStore } from '../billing/contract.ts';
import type { Store } from '../contract.ts';
import { migrationsIn } from '../migrations.ts';
import { exposeParts } from '../parts.ts';
import type { RequestStore } from '../requests/contract.ts';
import type { ResultStore } from '../results/contract.ts';
import type { Row } from '../rows.ts';
import type { TaskStore } from '../tasks/contract.ts';
import type { WebhookStore } from '../webhooks/contract.ts';
import { PostgresAccounts } from './accounts.ts';
import { PostgresBilling } from './billing.ts';
import { CheckpointFree } from './checkpoint-free.ts';
import { PgDb, type PostgresStoreOptions } from './handle.ts';
import { PostgresItems } from './items.ts';
import { PostgresRequests } from './requests.ts';
import { PostgresResults } from './results.ts';
import { PostgresTasks } from './tasks.ts';
import { PostgresWebhooks } from './webhooks.ts';

export type { PostgresStoreOptions } from './handle.ts';

// The parts' methods, put on each instance by exposeParts.
export interface PostgresStore extends AccountStore, BillingStore, Required<RequestStore>, Required<ResultStore>, WebhookStore, TaskStore {}

/** The table of applied migrations (one row each). */
export const MIGRATIONS_TABLE = 'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at bigint NOT NULL)';

export class PostgresStore implements Store {
  readonly kind = 'postgres' as const;
  readonly h: PgDb;
  private readonly requests: PostgresRequests;

  constructor(url: string, o: PostgresStoreOptions = {}) {
    const h = (this.h = new PgDb(url, o));
    // What the claims (and inserts that lease) know of checkpoints, told of the checkpoints saved since (./checkpoint-free.ts).
    const free = new CheckpointFree();
    this.requests = new PostgresRequests(h, free);
    exposeParts(this, [new PostgresAccounts(h), new PostgresBilling(h), this.requests, new PostgresItems(h, free), new PostgresResults(h, free),
      new PostgresWebhooks(h), new PostgresTasks(h)]);
  }

  get pool(): pg.Pool { return this.h.pool; }
  /** Connections that plan a prepared statement once for any values (PgDb.genericPool). */
  get genericPool(): pg.Pool { return this.h.genericPool; }
  /** A statement on a generically planning connection (PgDb.genericQuery). */
  genericQuery(config: pg.QueryConfig): Promise<pg.QueryResult> { return this.h.genericQuery(config); }
  get url(): string { return this.h.url; }
  get schema(): string | null { return this.h.schema; }
  get synchronousCommit(): boolean { return this.h.synchronousCommit; }

  /** Connection settings for a dedicated client (LISTEN) on the same database and schema. */
  clientConfig(): pg.ClientConfig {
    return this.h.clientConfig();
  }

  async migrate(): Promise<void> {
    const all = migrationsIn(new URL('./migrations/', import.meta.url));
    await this.h.tx(async (c) => {
      // Several processes may start at once: the first applies, the others wait here and find it done.
      await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`trawl:migrate:${this.schema ?? ''}`]);
      if (this.schema) await c.query(`CREATE SCHEMA IF NOT EXISTS ${this.schema}`);
      await c.query(MIGRATIONS_TABLE);
      const done = new Set((await c.query('SELECT version FROM schema_migrations')).rows.map((r: Row) => r.version));
      for (const m of all) {
        if (done.has(m.version)) continue;
        await c.query(m.sql);
        await c.query('INSERT INTO schema_migrations VALUES ($1, $2, $3)', [m.version, m.name, Date.now()]);
      }
    });
  }

  async close(): Promise<void> {
    await this.requests.batch.flush();
    await this.h.end();
  }

  async ping(): Promise<void> {
    await this.h.q('SELECT 1');
  }

  /** The database's size on disk (every schema in it: what fills the server's disk). */
  async sizeBytes(): Promise<number> {
    return Number((await this.h.q('SELECT pg_database_size(current_database()) AS n'))[0].n);
  }

  async secret(name: string): Promise<string> {
    const [r] = await this.h.q(`WITH i AS (INSERT INTO secrets (name, value, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING RETURNING value)
                                SELECT value FROM i UNION ALL SELECT value FROM secrets WHERE name = $1 LIMIT 1`,
    [name, randomBytes(32).toString('base64url'), Date.now()]);
    // A concurrent first use inserted it after this statement's snapshot: read it again.
    return (r ?? (await this.h.q('SELECT value FROM secrets WHERE name = $1', [name]))[0]).value as string;
  }
}

/**
 * Opens the PostgreSQL store and applies pending migrations.
 *
 * @example
 *   const store = await openPostgresStore(process.env.DATABASE_URL!, { schema: 'trawl' });
 */
export async function openPostgresStore(url: string, o: PostgresStoreOptions = {}): Promise<PostgresStore> {
  return migrated(new PostgresStore(url, o));
}

/**
 * Applies pending migrations to a new store and returns it; closes it when they fail.
 *
 * @example const s = await migrated(new PostgresStore(url, { schema: 'trawl' }));
 */
export async function migrated<S extends PostgresStore>(s: S): Promise<S> {
  try {
    await s.migrate();
  } catch (e) {
    await s.close().catch(() => {});
    throw e;
  }
  return s;
}
