/**
 * The embedded store: one SQLite file (WAL) through better-sqlite3. Synchronous calls wrapped in the
 * async contract; every multi-row change is one transaction, which is what makes billing and result
 * writes exactly-once (see src/store/contract.ts).
 *
 * This class is the composition of the store's parts (issue 16), one file each, over one shared
 * handle (./handle.ts): accounts.ts, billing.ts, requests.ts and items.ts, results.ts, webhooks.ts,
 * tasks.ts; the business database is reached apart (../businesses).
 *
 * @example
 *   const store = await openSqliteStore('./data/trawl.db');
 *   await store.createAccount({...});
 */
import type Database from 'better-sqlite3';
import { stat } from 'node:fs/promises';
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
import { SqliteAccounts } from './accounts.ts';
import { startCheckpointer, type Checkpointer } from './checkpointer.ts';
import { SqliteBilling } from './billing.ts';
import { SqliteDb } from './handle.ts';
import { SqliteItems } from './items.ts';
import { SqliteRequests } from './requests.ts';
import { SqliteResults } from './results.ts';
import { SqliteTasks } from './tasks.ts';
import { SqliteWebhooks } from './webhooks.ts';

// The parts' methods, put on each instance by exposeParts.
export interface SqliteStore extends AccountStore, BillingStore, Required<RequestStore>, ResultStore, WebhookStore, TaskStore {}

export class SqliteStore implements Store {
  readonly kind = 'sqlite' as const;
  readonly h: SqliteDb;

  /** `compression`: brotli quality, null = records stored as text (default 1). */
  constructor(file: string, opts: { compression?: number | null } = {}) {
    const h = (this.h = new SqliteDb(file, opts));
    exposeParts(this, [new SqliteAccounts(h), new SqliteBilling(h), new SqliteRequests(h), new SqliteItems(h), new SqliteResults(h),
      new SqliteWebhooks(h), new SqliteTasks(h)]);
  }

  get db(): Database.Database {
    return this.h.db;
  }

  async migrate(): Promise<void> {
    const db = this.db;
    db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
    const done = new Set((db.prepare('SELECT version FROM schema_migrations').all() as Row[]).map((r) => r.version));
    for (const m of migrationsIn(new URL('./migrations/', import.meta.url))) {
      if (done.has(m.version)) continue;
      db.transaction(() => {
        db.exec(m.sql);
        db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(m.version, m.name, Date.now());
      })();
    }
  }

  private checkpointer: Checkpointer | null = null;

  /** WAL checkpoints on their own thread every `everyMs` (./checkpointer.ts); a file database only. */
  checkpointApart(everyMs: number): void {
    if (this.checkpointer || !(everyMs > 0) || this.db.memory) return;
    this.checkpointer = startCheckpointer(this.db.name, everyMs);
  }

  async close(): Promise<void> {
    const cp = this.checkpointer;
    this.checkpointer = null;
    await cp?.stop();
    this.h.close();
  }

  async ping(): Promise<void> {
    this.h.s('SELECT 1').get();
  }

  /** Pages in use (free pages are reused before the file grows) plus the write-ahead log. */
  async sizeBytes(): Promise<number> {
    const db = this.db;
    const pages = (db.pragma('page_count', { simple: true }) as number) - (db.pragma('freelist_count', { simple: true }) as number);
    const wal = db.memory ? 0 : await stat(`${db.name}-wal`).then((s) => s.size, () => 0);
    return pages * (db.pragma('page_size', { simple: true }) as number) + wal;
  }

  async secret(name: string): Promise<string> {
    return this.h.grouped(() => {
      this.h.s('INSERT OR IGNORE INTO secrets (name, value, created_at) VALUES (?, ?, ?)').run(name, randomBytes(32).toString('base64url'), Date.now());
      return (this.h.s('SELECT value FROM secrets WHERE name = ?').get(name) as Row).value as string;
    });
  }
}

export async function openSqliteStore(file: string, opts: { compression?: number | null; checkpointMs?: number } = {}): Promise<SqliteStore> {
  const s = new SqliteStore(file, opts);
  await s.migrate();
  if (opts.checkpointMs) s.checkpointApart(opts.checkpointMs);
  return s;
}
