/**
 * The SQLite store's shared handle: the database connection, its statement cache, group commit and
 * the records codec. Every part of the store (accounts.ts, requests.ts, ...) works through one
 * handle, so a part's writes can run inside a transaction another part opened (a completion writes
 * results, usage and the webhook row in the item's transaction).
 *
 * better-sqlite3 is synchronous: a transaction is a function run start to end with nothing else on
 * the connection in between, which is what makes billing and result writes exactly-once.
 *
 * @example
 *   const h = new SqliteDb(':memory:');
 *   await h.grouped(() => h.s('INSERT INTO secrets VALUES (?, ?, ?)').run('n', 'v', 0));
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { createPrivately } from './private-file.ts';
import { isStoreUnavailable } from '../unavailable.ts';
import { recordsCodec, type RecordsCodec } from '../records-codec.ts';


/**
 * The primary-key range of a request's work items: ids are `<request id>:<index>` and ';' follows ':'
 * in byte order (SQLite's default BINARY collation), so `[id + ':', id + ';')` holds exactly them.
 *
 * @example itemRange('r1') // ['r1:', 'r1;']
 */
export const itemRange = (requestId: string): [string, string] => [`${requestId}:`, `${requestId};`];

export class SqliteDb {
  readonly db: Database.Database;
  /** Records are stored compressed (issue 15; src/store/records-codec.ts). */
  readonly codec: RecordsCodec;
  private st: Record<string, Database.Statement> = {};
  private pending: { run: () => unknown; resolve: (v: any) => void; reject: (e: unknown) => void }[] = [];

  /** `compression`: brotli quality, null = records stored as text (default 1). */
  constructor(file: string, opts: { compression?: number | null } = {}) {
    this.codec = recordsCodec(opts.compression === undefined ? 1 : opts.compression);
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    createPrivately(file);
    this.db = new Database(file);
    this.inTx = this.db.transaction((fn: () => unknown) => fn()) as <T>(fn: () => T) => T;
    // Pages freed by the janitor go back to the file system (purge runs incremental_vacuum). Takes
    // effect only on a new database: an existing one keeps its mode until a one-off VACUUM
    // (docs/operations.md), and without it the file never shrinks (issue 15).
    this.db.pragma('auto_vacuum = INCREMENTAL');
    this.db.pragma('journal_mode = WAL');
    // NORMAL in WAL mode is durable across process crashes (only an OS crash may lose the last commits).
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    // A larger page cache keeps the hot index pages of requests and work items in memory, and a
    // larger checkpoint interval lets the many writes to those same pages coalesce before they are
    // copied into the database file.
    this.db.pragma('cache_size = -65536');
    this.db.pragma('wal_autocheckpoint = 8000');
    this.db.pragma('temp_store = MEMORY');
    this.db.pragma('foreign_keys = ON');
  }

  /** A prepared statement per distinct SQL text, prepared once. */
  s(sql: string): Database.Statement {
    return (this.st[sql] ??= this.db.prepare(sql));
  }

  /** One transaction wrapper for every call: better-sqlite3 builds four wrapper functions for each
   *  db.transaction(fn), and a group commit, a claim and a heartbeat each asked for one (issue 15). */
  private readonly inTx: <T>(fn: () => T) => T;

  /** Runs fn in one transaction, now (in a savepoint when already in one). */
  tx<T>(fn: () => T): T {
    return this.inTx(fn);
  }

  /**
   * Group commit: writes that arrive in the same event-loop turn share one transaction (each in its
   * own savepoint, so one failing write rolls back alone). A commit is the expensive part of a small
   * write; under load this turns N commits into one. Callers still resolve only after the commit.
   */
  grouped<T>(fn: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ run: fn, resolve, reject });
      if (this.pending.length === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const batch = this.pending.splice(0);
    // Fast path: the whole batch in one transaction without savepoints. Writes almost never throw;
    // when one does, the batch is rolled back whole and replayed with a savepoint per write, so
    // only the failing write fails.
    let results: unknown[] = [];
    try {
      results = this.tx(() => batch.map((op) => op.run()));
      batch.forEach((op, i) => op.resolve(results[i]));
      return;
    } catch {
      // fall through to the careful path
    }
    const careful: { ok: boolean; v: unknown }[] = [];
    try {
      this.tx(() => {
        for (const op of batch) {
          try {
            careful.push({ ok: true, v: this.tx(op.run) });
          } catch (e) {
            // A full disk or an I/O error may have rolled the whole transaction back already (SQLite
            // does so on SQLITE_FULL/IOERR/NOMEM): the batch fails as one, and is retried as one.
            if (isStoreUnavailable(e)) throw e;
            careful.push({ ok: false, v: e });
          }
        }
      });
    } catch (e) {
      for (const op of batch) op.reject(e);
      return;
    }
    batch.forEach((op, i) => (careful[i].ok ? op.resolve(careful[i].v) : op.reject(careful[i].v)));
  }

  /** Commits the writes still waiting for their group, then closes the database. */
  close(): void {
    if (this.pending.length) this.flush();
    this.db.close();
  }
}
