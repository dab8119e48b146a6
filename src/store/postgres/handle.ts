/**
 * The PostgreSQL store's shared handle: the pool, named prepared statements, transactions with
 * retry, and durable writes. Every part of the store (accounts.ts, items.ts, ...) works through one
 * handle; a part's write that must join another part's transaction takes that transaction's client
 * (`c`), which every helper here accepts.
 *
 * Connection loss surfaces as StoreUnavailableError (see errors.ts); the pool reconnects by itself.
 *
 * @example
 *   const h = new PgDb(url, { schema: 'trawl' });
 *   await h.tx(async (c) => { await h.q('UPDATE accounts SET ...', [...], c); });
 */
import pg from 'pg';
import { createHash } from 'node:crypto';
import { asStoreError } from './errors.ts';
import type { Row } from '../rows.ts';

export type Client = pg.PoolClient;

export interface PostgresStoreOptions {
  /** Schema to live in (set as search_path; created by migrate()). Default: the server's default (public). */
  schema?: string;
  /** Pool size. Default 10. */
  max?: number;
  /** How long to wait for a connection before failing with StoreUnavailableError. Default 5000 ms. */
  connectTimeoutMs?: number;
  /** Server-side limit per statement, so a stuck query frees its connection. Default 30000 ms. */
  statementTimeoutMs?: number;
  /** Shown in pg_stat_activity. Default 'trawl'. */
  applicationName?: string;
  /**
   * Wait for the WAL flush at every commit. Default false: like the SQLite store's WAL with
   * synchronous=NORMAL, a commit survives any crash of trawl's processes, and only a crash of the
   * database server or its machine may lose the last fraction of a second of commits (never part of
   * one: a lost completion is lost with its bill, and the item runs again). Accounts, keys, prices and
   * balance changes always wait for the flush.
   */
  synchronousCommit?: boolean;
}

// bigint (20) and numeric (1700, what SUM over bigint returns) come back as strings by default. Every
// such value here is a count, a millisecond time or an amount, all far below 2^53.
const INT8 = 20;
const NUMERIC = 1700;
const types = {
  getTypeParser(oid: number, format?: string): any {
    if (oid === INT8 || oid === NUMERIC) return (v: string) => Number(v);
    return (pg.types.getTypeParser as (o: number, f?: string) => unknown)(oid, format);
  },
};

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
// Deadlocks cannot arise from this store's own lock order, but a hand-run statement could cause one.
const RETRYABLE = new Set(['40P01', '40001']);

export class PgDb {
  readonly pool: pg.Pool;
  readonly schema: string | null;
  readonly synchronousCommit: boolean;
  private names = new Map<string, string>();

  constructor(readonly url: string, o: PostgresStoreOptions = {}) {
    if (o.schema !== undefined && !SCHEMA_NAME.test(o.schema)) throw new Error(`invalid schema name ${JSON.stringify(o.schema)}: use lower-case letters, digits and _`);
    this.schema = o.schema ?? null;
    this.synchronousCommit = o.synchronousCommit ?? false;
    this.poolConfig = {
      connectionString: url,
      max: o.max ?? 10,
      connectionTimeoutMillis: o.connectTimeoutMs ?? 5_000,
      idleTimeoutMillis: 30_000,
      keepAlive: true,
      statement_timeout: o.statementTimeoutMs ?? 30_000,
      application_name: o.applicationName ?? 'trawl',
      options: this.sessionOptions(),
      types,
    } as pg.PoolConfig;
    this.pool = this.newPool(this.poolConfig);
  }

  private readonly poolConfig: pg.PoolConfig;
  private generic?: pg.Pool;

  private newPool(config: pg.PoolConfig): pg.Pool {
    const pool = new pg.Pool(config);
    // An idle connection that dies (server restart) is reported here; without a listener the process
    // would crash. The pool has already discarded it and opens a new one on the next query.
    pool.on('error', (e) => process.emitWarning(`postgres store: idle connection lost: ${e.message}`));
    return pool;
  }

  /**
   * A second pool, made on first use, whose connections plan each prepared statement once for any
   * values (plan_cache_mode=force_generic_plan): for the business searches whose best plan does not
   * depend on their values (businesses/postgres.ts). Apart, so that no other statement is planned so.
   */
  get genericPool(): pg.Pool {
    this.generic ??= this.newPool({ ...this.poolConfig, max: Math.max(2, Math.ceil((this.poolConfig.max ?? 10) / 2)),
      options: [this.poolConfig.options, '-c plan_cache_mode=force_generic_plan'].filter(Boolean).join(' ') });
    return this.generic;
  }

  /**
   * A statement on a generically planning connection. One of them is held for these statements while
   * none runs on it: through the pool a query costs about 0.04 ms more (acquire and release
   * bookkeeping), a tenth of an unfiltered business page; a concurrent one takes the pool.
   */
  async genericQuery(config: pg.QueryConfig): Promise<pg.QueryResult> {
    if (this.heldBusy || this.ending) return this.genericPool.query(config);
    this.heldBusy = true;
    try {
      const c = await (this.held ??= this.hold());
      return await c.query(config);
    } catch (e) {
      // A failed statement or a lost connection: the held one is let go (ended), a new one held next.
      this.letGo(e);
      throw e;
    } finally {
      this.heldBusy = false;
    }
  }

  private held?: Promise<pg.PoolClient>;
  private heldBusy = false;
  private ending = false;

  private async hold(): Promise<pg.PoolClient> {
    const c = await this.genericPool.connect();
    // Lost while held (no statement running): without a listener the process would crash.
    c.on('error', (e) => this.letGo(e));
    return c;
  }

  private letGo(e: unknown): void {
    const held = this.held;
    this.held = undefined;
    held?.then((c) => c.release(e instanceof Error ? e : true), () => {});
  }

  /** Ends both pools. */
  async end(): Promise<void> {
    this.ending = true;
    this.letGo(true);
    await Promise.all([this.pool.end(), this.generic?.end()]);
  }

  /** Connection settings for a dedicated client (LISTEN) on the same database and schema. */
  clientConfig(): pg.ClientConfig {
    return { connectionString: this.url, keepAlive: true, application_name: 'trawl', options: this.sessionOptions(), types } as pg.ClientConfig;
  }

  private sessionOptions(): string | undefined {
    const o = [this.schema ? `-c search_path=${this.schema}` : '', this.synchronousCommit ? '' : '-c synchronous_commit=off'].filter(Boolean);
    return o.length ? o.join(' ') : undefined;
  }

  /** A named prepared statement per distinct SQL text: parsed once per connection. */
  private stmt(text: string, values: unknown[]): pg.QueryConfig {
    let name = this.names.get(text);
    if (!name) this.names.set(text, (name = 't' + createHash('sha1').update(text).digest('hex').slice(0, 20)));
    return { name, text, values };
  }

  /** One statement, on `c` or any pooled connection; an outage surfaces as StoreUnavailableError. */
  async exec(sql: string, args: unknown[], c?: Client): Promise<pg.QueryResult<Row>> {
    try {
      return await (c ?? this.pool).query(this.stmt(sql, args));
    } catch (e) {
      throw asStoreError(e);
    }
  }

  /** The rows of one statement. */
  async q(sql: string, args: unknown[] = [], c?: Client): Promise<Row[]> {
    return (await this.exec(sql, args, c)).rows;
  }

  /**
   * The rows of one statement (not in a transaction) planned once for any values, on the generic
   * connections (genericQuery). For statements whose values are arrays (a batch's columns): with
   * each call's array lengths the planner's estimate of a custom plan is always below the generic
   * plan's, so the default mode planned every call again (issue 37: the request insert took 1.5 ms of
   * the server's CPU a call planned each time, 0.84 ms planned once). Their plan does not depend on
   * the values: every lookup in them is by key.
   */
  async qPlannedOnce(sql: string, args: unknown[]): Promise<Row[]> {
    try {
      return (await this.genericQuery(this.stmt(sql, args))).rows;
    } catch (e) {
      throw asStoreError(e);
    }
  }

  /** How many rows one statement changed. */
  async n(sql: string, args: unknown[] = [], c?: Client): Promise<number> {
    return (await this.exec(sql, args, c)).rowCount ?? 0;
  }

  /** A write that must be on disk when it returns (money, keys), whatever the session's setting. */
  async durable(sql: string, args: unknown[]): Promise<{ rows: Row[]; count: number }> {
    const run = async (c?: Client) => {
      const r = await this.exec(sql, args, c);
      return { rows: r.rows, count: r.rowCount ?? 0 };
    };
    if (this.synchronousCommit) return run();
    return this.tx(async (c) => { await c.query('SET LOCAL synchronous_commit = on'); return run(c); });
  }

  /** Runs fn in one transaction (READ COMMITTED plus explicit row locks). */
  async tx<T>(fn: (c: Client) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      let c: Client;
      try { c = await this.pool.connect(); } catch (e) { throw asStoreError(e); }
      let broken: Error | undefined;
      try {
        await c.query('BEGIN');
        const out = await fn(c);
        await c.query('COMMIT');
        return out;
      } catch (e) {
        await c.query('ROLLBACK').catch((r: Error) => { broken = r; });
        const code = (e as { code?: string }).code;
        if (code && RETRYABLE.has(code) && attempt < 4) continue;
        throw asStoreError(e);
      } finally {
        // A connection whose ROLLBACK failed is destroyed rather than handed to the next caller.
        c.release(broken);
      }
    }
  }
}
