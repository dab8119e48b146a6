/**
 * The store at scale: PostgreSQL through a `pg` Pool, same contract and same behaviour as the SQLite
 * store (src/store/sqlite/store.ts). What SQLite gets from running one statement at a time, this store
 * gets from row locks, taken in an order that never lets two transactions wait on each other in a
 * circle: the work item first; then, for a completion, the account (its charge is checked against
 * the credit rule before anything else is written) and the request, except in a totalLimit request,
 * whose completions all lock the request before the account. The two orders never meet on one
 * request, and nothing else holds an account while it waits for a request.
 *
 * - A claim picks rows with `FOR UPDATE SKIP LOCKED`, so any number of workers claim without blocking.
 * - Completing or failing an item locks the item row and checks it is still leased by the caller; the
 *   result, the usage line (unique item_key) and the request's counters change in that transaction,
 *   so a stale or repeated completion writes and bills nothing.
 * - The request's fan-in is one conditional UPDATE under the request's row lock: the transaction that
 *   ends the last item ends the request and creates its webhook delivery row.
 *
 * Connection loss surfaces as StoreUnavailableError (see errors.ts); the pool reconnects by itself.
 *
 * @example
 *   const store = await openPostgresStore('postgres://postgres@127.0.0.1:5432/trawl');
 *   const acct = await store.getAccount('a1');
 */
import pg from 'pg';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type {
  Account, ApiKeyRow, Checkpoint, FanIn, ItemOutcome, ItemState, NewRequest, Progress, QueryResult, RequestRow, Store, TaskRow,
  DirectCharge, UsageLine, WebhookCall, WebhookDelivery, WorkItem,
} from '../contract.ts';
import { migrationsIn } from '../migrations.ts';
import { asStoreError } from './errors.ts';
import { isStoreUnavailable } from '../unavailable.ts';
import { duplicateSurcharge, itemBilling } from '../../billing/rule.ts';
import { BALANCE_EXHAUSTED } from '../../billing/credit.ts';
// The totalLimit cut is shared with the SQLite store so both cut exactly alike.
import { capToTotal } from '../cap.ts';
import { ACCOUNT_COLUMNS, CHUNK_PAGE, TASK_COLUMNS, chunkTexts, rowMappers, splitItemId, toAccount, toUsageLine } from '../rows.ts';

type Row = Record<string, any>;
type Client = pg.PoolClient;

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

const { toRequest, toTask } = rowMappers((v) => v);

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
// Deadlocks cannot arise from this store's own lock order, but a hand-run statement could cause one.
const RETRYABLE = new Set(['40P01', '40001']);

/** Webhook delivery of a request that ended in the same statement (CTE `req`), when `alone` is true. */
const hookCte = (now: string, alone: string) => `
    INSERT INTO webhook_deliveries (id, account_id, request_id, url, next_at)
    SELECT req.id, req.account_id, req.id, COALESCE(req.webhook, a.webhook_url), ${now} FROM req JOIN accounts a ON a.id = req.account_id
    WHERE ${alone} AND req.status <> 'Pending' AND COALESCE(req.webhook, a.webhook_url) IS NOT NULL
    ON CONFLICT (id) DO NOTHING`;

export class PostgresStore implements Store {
  readonly kind = 'postgres' as const;
  readonly pool: pg.Pool;
  readonly schema: string | null;
  readonly synchronousCommit: boolean;
  private names = new Map<string, string>();

  constructor(readonly url: string, o: PostgresStoreOptions = {}) {
    if (o.schema !== undefined && !SCHEMA_NAME.test(o.schema)) throw new Error(`invalid schema name ${JSON.stringify(o.schema)}: use lower-case letters, digits and _`);
    this.schema = o.schema ?? null;
    this.synchronousCommit = o.synchronousCommit ?? false;
    this.pool = new pg.Pool({
      connectionString: url,
      max: o.max ?? 10,
      connectionTimeoutMillis: o.connectTimeoutMs ?? 5_000,
      idleTimeoutMillis: 30_000,
      keepAlive: true,
      statement_timeout: o.statementTimeoutMs ?? 30_000,
      application_name: o.applicationName ?? 'trawl',
      options: this.sessionOptions(),
      types,
    } as pg.PoolConfig);
    // An idle connection that dies (server restart) is reported here; without a listener the process
    // would crash. The pool has already discarded it and opens a new one on the next query.
    this.pool.on('error', (e) => process.emitWarning(`postgres store: idle connection lost: ${e.message}`));
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
  private async exec(sql: string, args: unknown[], c?: Client): Promise<pg.QueryResult<Row>> {
    try {
      return await (c ?? this.pool).query(this.stmt(sql, args));
    } catch (e) {
      throw asStoreError(e);
    }
  }

  private async q(sql: string, args: unknown[] = [], c?: Client): Promise<Row[]> {
    return (await this.exec(sql, args, c)).rows;
  }

  private async n(sql: string, args: unknown[] = [], c?: Client): Promise<number> {
    return (await this.exec(sql, args, c)).rowCount ?? 0;
  }

  /** A write that must be on disk when it returns (money, keys), whatever the session's setting. */
  private async durable(sql: string, args: unknown[]): Promise<{ rows: Row[]; count: number }> {
    const run = async (c?: Client) => {
      const r = await this.exec(sql, args, c);
      return { rows: r.rows, count: r.rowCount ?? 0 };
    };
    if (this.synchronousCommit) return run();
    return this.tx(async (c) => { await c.query('SET LOCAL synchronous_commit = on'); return run(c); });
  }

  /** Runs fn in one transaction (READ COMMITTED plus explicit row locks). */
  private async tx<T>(fn: (c: Client) => Promise<T>): Promise<T> {
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

  async migrate(): Promise<void> {
    const all = migrationsIn(new URL('./migrations/', import.meta.url));
    await this.tx(async (c) => {
      // Several processes may start at once: the first applies, the others wait here and find it done.
      await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`trawl:migrate:${this.schema ?? ''}`]);
      if (this.schema) await c.query(`CREATE SCHEMA IF NOT EXISTS ${this.schema}`);
      await c.query('CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at bigint NOT NULL)');
      const done = new Set((await c.query('SELECT version FROM schema_migrations')).rows.map((r: Row) => r.version));
      for (const m of all) {
        if (done.has(m.version)) continue;
        await c.query(m.sql);
        await c.query('INSERT INTO schema_migrations VALUES ($1, $2, $3)', [m.version, m.name, Date.now()]);
      }
    });
  }

  async close(): Promise<void> {
    if (this.pendingRequests.length) await this.flushRequests();
    await this.pool.end();
  }

  async ping(): Promise<void> {
    await this.q('SELECT 1');
  }

  /** The database's size on disk (every schema in it: what fills the server's disk). */
  async sizeBytes(): Promise<number> {
    return Number((await this.q('SELECT pg_database_size(current_database()) AS n'))[0].n);
  }

  // ---------------------------------------------------------------- accounts and keys
  async createAccount(a: Omit<Account, 'createdAt'> & { createdAt?: number }): Promise<Account> {
    const createdAt = a.createdAt ?? Date.now();
    await this.durable(`INSERT INTO accounts (id, name, balance_micros, credit_limit_micros, currency, past_due, webhook_secret, webhook_url, rate_per_sec, burst, created_at)
                  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [a.id, a.name, a.balanceMicros, a.creditLimitMicros, a.currency, a.pastDue, a.webhookSecret, a.webhookUrl, a.ratePerSec, a.burst, createdAt]);
    return { ...a, createdAt };
  }

  async getAccount(id: string): Promise<Account | null> {
    const [r] = await this.q('SELECT * FROM accounts WHERE id = $1', [id]);
    return r ? toAccount(r) : null;
  }

  async listAccounts(): Promise<Account[]> {
    return (await this.q('SELECT * FROM accounts ORDER BY created_at')).map(toAccount);
  }

  async countAccounts(): Promise<number> {
    return (await this.q('SELECT COUNT(*) AS n FROM accounts'))[0].n;
  }

  async updateAccount(id: string, patch: Partial<Omit<Account, 'id' | 'createdAt' | 'balanceMicros'>>): Promise<void> {
    const sets: string[] = [];
    const args: unknown[] = [id];
    for (const [k, v] of Object.entries(patch)) {
      const col = ACCOUNT_COLUMNS[k];
      if (!col || v === undefined) continue;
      args.push(v);
      sets.push(`${col} = $${args.length}`);
    }
    if (sets.length) await this.durable(`UPDATE accounts SET ${sets.join(', ')} WHERE id = $1`, args);
  }

  async addBalance(id: string, amountMicros: number): Promise<number> {
    const [r] = (await this.durable('UPDATE accounts SET balance_micros = balance_micros + $1 WHERE id = $2 RETURNING balance_micros', [amountMicros, id])).rows;
    if (!r) throw new Error(`no account ${id}`);
    return r.balance_micros;
  }

  async addApiKey(accountId: string, keyHash: string, prefix: string, now: number): Promise<ApiKeyRow> {
    const id = randomUUID();
    await this.durable('INSERT INTO api_keys (id, account_id, key_hash, prefix, created_at) VALUES ($1, $2, $3, $4, $5)', [id, accountId, keyHash, prefix, now]);
    return { id, accountId, prefix, createdAt: now, revokedAt: null };
  }

  async findKey(keyHash: string) {
    const [r] = await this.q(`SELECT k.id AS key_id, k.key_hash, a.* FROM api_keys k JOIN accounts a ON a.id = k.account_id
                              WHERE k.key_hash = $1 AND k.revoked_at IS NULL`, [keyHash]);
    return r ? { account: toAccount(r), keyHash: r.key_hash as string, keyId: r.key_id as string } : null;
  }

  async listApiKeys(accountId: string): Promise<ApiKeyRow[]> {
    return (await this.q('SELECT * FROM api_keys WHERE account_id = $1 ORDER BY created_at', [accountId])).map((r) => ({
      id: r.id, accountId: r.account_id, prefix: r.prefix, createdAt: r.created_at, revokedAt: r.revoked_at ?? null,
    }));
  }

  async revokeApiKey(keyId: string, now: number): Promise<boolean> {
    return (await this.durable('UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [now, keyId])).count > 0;
  }

  // ---------------------------------------------------------------- prices
  async setPrice(product: string, unitPriceMicros: number, accountId?: string | null): Promise<void> {
    await this.durable(`INSERT INTO prices (account_id, product, unit_price_micros) VALUES ($1, $2, $3)
                  ON CONFLICT (account_id, product) DO UPDATE SET unit_price_micros = excluded.unit_price_micros`, [accountId ?? '', product, unitPriceMicros]);
  }

  async getPrice(product: string, accountId: string): Promise<number | null> {
    const [r] = await this.q(`SELECT unit_price_micros FROM prices WHERE product = $1 AND account_id IN ($2, '') ORDER BY account_id DESC LIMIT 1`, [product, accountId]);
    return r ? r.unit_price_micros : null;
  }

  // ---------------------------------------------------------------- requests
  private pendingRequests: { r: NewRequest; resolve: () => void; reject: (e: unknown) => void }[] = [];

  /**
   * Group insert: the requests submitted in one event-loop turn go to the server as one statement
   * (columns as arrays), so a burst of submits costs one round trip and one protocol exchange instead
   * of one each. A failing batch (a duplicate id, say) is replayed one request at a time, so only the
   * failing one fails.
   */
  async createRequest(r: NewRequest): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pendingRequests.push({ r, resolve, reject });
      if (this.pendingRequests.length === 1) setImmediate(() => void this.flushRequests());
    });
  }

  private async flushRequests(): Promise<void> {
    const batch = this.pendingRequests.splice(0);
    if (!batch.length) return;
    try {
      await this.insertRequests(batch.map((p) => p.r));
      for (const p of batch) p.resolve();
      return;
    } catch (e) {
      // An outage fails every request alike: replaying them one by one would only wait longer.
      if (batch.length === 1 || isStoreUnavailable(e)) return void batch.forEach((p) => p.reject(e));
    }
    await Promise.all(batch.map((p) => this.insertRequests([p.r]).then(p.resolve, p.reject)));
  }

  /** One statement, so one round trip and atomic without an explicit transaction. */
  private async insertRequests(rs: NewRequest[]): Promise<void> {
    const items = { id: [] as string[], req: [] as string[], idx: [] as number[], query: [] as string[], max: [] as number[], at: [] as number[] };
    for (const r of rs) {
      r.queries.forEach((q, i) => {
        items.id.push(`${r.id}:${i}`); items.req.push(r.id); items.idx.push(i); items.query.push(q);
        items.max.push(r.maxAttempts); items.at.push(r.createdAt);
      });
    }
    await this.q(`WITH req AS (
                    INSERT INTO requests (id, account_id, endpoint, params, queries_total, webhook, product, unit, unit_price_micros,
                                          empty_costs_one, drop_duplicates, task_id, created_at)
                    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::json[], $5::int[], $6::text[], $7::text[], $8::text[],
                                         $9::bigint[], $10::boolean[], $11::boolean[], $12::text[], $13::bigint[])
                    RETURNING id)
                  INSERT INTO work_items (id, request_id, query_index, query, max_attempts, run_after)
                  SELECT i.id, req.id, i.idx, i.query, i.max, i.at
                  FROM unnest($14::text[], $15::text[], $16::int[], $17::text[], $18::int[], $19::bigint[]) AS i(id, req, idx, query, max, at)
                  JOIN req ON req.id = i.req`,
    [rs.map((r) => r.id), rs.map((r) => r.accountId), rs.map((r) => r.endpoint), rs.map((r) => JSON.stringify(r.params)),
      rs.map((r) => r.queries.length), rs.map((r) => r.webhook), rs.map((r) => r.product), rs.map((r) => r.unit),
      rs.map((r) => r.unitPriceMicros), rs.map((r) => r.emptyCostsOne), rs.map((r) => r.dropDuplicates), rs.map((r) => r.taskId),
      rs.map((r) => r.createdAt), items.id, items.req, items.idx, items.query, items.max, items.at]);
  }

  async getRequest(id: string): Promise<RequestRow | null> {
    const [r] = await this.q('SELECT * FROM requests WHERE id = $1', [id]);
    return r ? toRequest(r) : null;
  }

  async listRequests(accountId: string, o: { finished: boolean; since: number; skip: number; limit: number }): Promise<RequestRow[]> {
    const cond = o.finished ? 'finished_at IS NOT NULL' : 'finished_at IS NULL';
    return (await this.q(`SELECT * FROM requests WHERE account_id = $1 AND created_at >= $2 AND ${cond}
                          ORDER BY created_at DESC, id LIMIT $3 OFFSET $4`, [accountId, o.since, o.limit, o.skip])).map(toRequest);
  }

  async getRequestWithResults(id: string, page: number): Promise<{ row: RequestRow; first: QueryResult[] } | null> {
    // One round trip for the common read of a finished request: the row and its first results.
    const [r] = await this.q(`SELECT q.*, (SELECT COALESCE(json_agg(x ORDER BY x.query_index), '[]'::json) FROM (
                                SELECT r.query_index, r.records, r.count, r.error, r.chunks, w.query FROM results r
                                JOIN work_items w ON w.id = r.request_id || ':' || r.query_index
                                WHERE r.request_id = q.id AND q.finished_at IS NOT NULL ORDER BY r.query_index LIMIT $2) x) AS first_page
                              FROM requests q WHERE q.id = $1`, [id, page]);
    if (!r) return null;
    const first: QueryResult[] = [];
    for (const x of r.first_page as Row[]) {
      for await (const part of this.withChunks(id, x)) first.push(part);
    }
    return { row: toRequest(r), first };
  }

  /** One results row as its parts: its saved chunks (streamed queries) first, then its own records. */
  private async *withChunks(requestId: string, r: Row): AsyncIterable<QueryResult> {
    const base = { queryIndex: r.query_index, query: r.query, count: r.count, error: r.error ?? null };
    if (r.chunks > 0) for await (const part of this.chunksOf(requestId, r.query_index)) yield { ...base, recordsJson: part, more: true };
    yield { ...base, recordsJson: r.records };
  }

  async *readResults(requestId: string, afterIndex = -1): AsyncIterable<QueryResult> {
    // Pages by query index so a 1000 x 500 result never sits in memory whole and no connection is
    // held while the consumer writes to a slow socket.
    let after = afterIndex;
    for (;;) {
      const rows = await this.q(`SELECT r.query_index, r.records, r.count, r.error, r.chunks, w.query FROM results r
                                 JOIN work_items w ON w.id = r.request_id || ':' || r.query_index
                                 WHERE r.request_id = $1 AND r.query_index > $2 ORDER BY r.query_index LIMIT 20`, [requestId, after]);
      for (const r of rows) yield* this.withChunks(requestId, r);
      if (rows.length < 20) return;
      after = rows[rows.length - 1].query_index;
    }
  }

  /** The saved chunks of one query, a page of rows at a time. */
  private chunksOf(requestId: string, queryIndex: number): AsyncIterable<string> {
    return chunkTexts((after) => this.q(`SELECT chunk, records FROM result_chunks WHERE request_id = $1 AND query_index = $2 AND chunk > $3
                                        ORDER BY chunk LIMIT ${CHUNK_PAGE}`, [requestId, queryIndex, after]));
  }

  readChunks(itemId: string): AsyncIterable<string> {
    return this.chunksOf(...splitItemId(itemId));
  }

  /*
   * A checkpoint in one statement: it locks the item if this owner still leases it (no row: nothing
   * is written), moves the progress row on (chunks + 1 when a chunk comes) and stores the chunk under
   * the number the progress row had.
   */
  async saveProgress(c: Checkpoint): Promise<boolean> {
    const [x] = await this.q(`WITH it AS (
                                SELECT w.request_id, w.query_index FROM work_items w JOIN requests r ON r.id = w.request_id
                                WHERE w.id = $1 AND w.state = 'leased' AND w.lease_owner = $2 AND r.status = 'Pending' FOR UPDATE OF w),
                              p AS (INSERT INTO item_progress (request_id, query_index, state, chunks, records, updated_at)
                                    SELECT request_id, query_index, $3, $6::int, COALESCE($5::int, 0), $7 FROM it
                                    ON CONFLICT (request_id, query_index) DO UPDATE SET state = excluded.state,
                                      chunks = item_progress.chunks + excluded.chunks, records = item_progress.records + excluded.records,
                                      updated_at = excluded.updated_at
                                    RETURNING chunks),
                              c AS (INSERT INTO result_chunks (request_id, query_index, chunk, records, count)
                                    SELECT it.request_id, it.query_index, p.chunks - 1, $4, $5::int FROM it, p WHERE $4::text IS NOT NULL)
                              SELECT COUNT(*) AS n FROM p`,
    [c.itemId, c.owner, c.state, c.chunk?.recordsJson ?? null, c.chunk?.count ?? null, c.chunk ? 1 : 0, c.now]);
    return x.n > 0;
  }

  async loadProgress(itemId: string): Promise<Progress | null> {
    const [r] = await this.q('SELECT state, chunks, records FROM item_progress WHERE request_id = $1 AND query_index = $2', splitItemId(itemId));
    return r ? { state: r.state, chunks: r.chunks, records: r.records } : null;
  }

  async secret(name: string): Promise<string> {
    const [r] = await this.q(`WITH i AS (INSERT INTO secrets (name, value, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING RETURNING value)
                              SELECT value FROM i UNION ALL SELECT value FROM secrets WHERE name = $1 LIMIT 1`,
    [name, randomBytes(32).toString('base64url'), Date.now()]);
    // A concurrent first use inserted it after this statement's snapshot: read it again.
    return (r ?? (await this.q('SELECT value FROM secrets WHERE name = $1', [name]))[0]).value as string;
  }

  async purge(resultsBefore: number, requestsBefore: number, limit?: number): Promise<number> {
    const max = limit ?? null; // LIMIT NULL = no limit
    return this.tx(async (c) => {
      const ids = (await this.q(`SELECT id FROM requests q WHERE finished_at IS NOT NULL AND finished_at < $1
                                 AND EXISTS (SELECT 1 FROM results WHERE request_id = q.id) LIMIT $2`, [resultsBefore, max], c)).map((r) => r.id as string);
      if (ids.length) await this.dropResults(c, ids);
      const old = (await this.q('SELECT id FROM requests WHERE created_at < $1 AND finished_at IS NOT NULL LIMIT $2', [requestsBefore, max], c)).map((r) => r.id as string);
      if (old.length) {
        await this.dropResults(c, old);
        await this.q('DELETE FROM work_items WHERE request_id = ANY($1::text[])', [old], c);
        await this.q('DELETE FROM requests WHERE id = ANY($1::text[])', [old], c);
        // Their webhook deliveries (keyed by the request id) once ended; one still retrying stays.
        await this.q("DELETE FROM webhook_deliveries WHERE id = ANY($1::text[]) AND state <> 'pending'", [old], c);
      }
      // Failed webhook calls (GET /webhook-calls shows the history period only).
      const [calls] = await this.q(`WITH d AS (DELETE FROM webhook_calls WHERE id IN (SELECT id FROM webhook_calls WHERE created_at < $1 LIMIT $2) RETURNING 1)
                                    SELECT count(*)::int AS n FROM d`, [requestsBefore, max], c);
      return Math.max(ids.length, old.length, calls.n as number);
    });
  }

  /** Deletes the requests' results, their chunks and checkpoints, and their dropDuplicates keys. */
  private async dropResults(c: Client, ids: string[]): Promise<void> {
    for (const table of ['results', 'result_chunks', 'item_progress', 'request_keys']) await this.q(`DELETE FROM ${table} WHERE request_id = ANY($1::text[])`, [ids], c);
  }

  // ---------------------------------------------------------------- work items
  async claimItems(owner: string, max: number, leaseMs: number, now: number, ids?: string[]): Promise<WorkItem[]> {
    if (max <= 0 || (ids && !ids.length)) return [];
    // Queued items first (oldest due first), then items whose lease ran out; rows another claimer
    // holds are skipped, not waited for. The outer LIMIT stops the second scan when the first sufficed.
    const ctes = ids
      ? `pick AS (SELECT id FROM work_items WHERE id = ANY($5::text[])
                    AND ((state = 'queued' AND run_after <= $1) OR (state = 'leased' AND lease_until < $1))
                  LIMIT $2 FOR UPDATE SKIP LOCKED)`
      : `q AS (SELECT id FROM work_items WHERE state = 'queued' AND run_after <= $1 ORDER BY run_after LIMIT $2 FOR UPDATE SKIP LOCKED),
         l AS (SELECT id FROM work_items WHERE state = 'leased' AND lease_until < $1 ORDER BY lease_until LIMIT $2 FOR UPDATE SKIP LOCKED),
         pick AS (SELECT id FROM q UNION ALL SELECT id FROM l LIMIT $2)`;
    const rows = await this.q(`WITH ${ctes}
                               UPDATE work_items w SET state = 'leased', lease_owner = $3, lease_until = $4, attempts = w.attempts + 1
                               FROM pick, requests r WHERE w.id = pick.id AND r.id = w.request_id
                               RETURNING w.id, w.request_id, w.query_index, w.query, w.attempts, w.max_attempts, w.run_after,
                                         r.account_id, r.endpoint, r.params`,
    ids ? [now, max, owner, now + leaseMs, ids] : [now, max, owner, now + leaseMs]);
    if (ids) rows.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
    else rows.sort((a, b) => a.run_after - b.run_after);
    return rows.map((x) => ({
      id: x.id, requestId: x.request_id, accountId: x.account_id, endpoint: x.endpoint, queryIndex: x.query_index,
      query: x.query, params: x.params, attempts: x.attempts, maxAttempts: x.max_attempts,
    }));
  }

  async heartbeat(owner: string, itemIds: string[], leaseUntil: number): Promise<void> {
    if (!itemIds.length) return;
    await this.q(`UPDATE work_items SET lease_until = $1 WHERE id = ANY($2::text[]) AND lease_owner = $3 AND state = 'leased'`, [leaseUntil, itemIds, owner]);
  }

  /** Writes the usage line unless this key was billed already, and charges the account. Returns the
   *  quantity billed now (0 for a repeat). Used for the duplicate surcharge at a request's end; the
   *  per-item bill is part of the completion statement below. */
  private async bill(c: Client, r: Row, requestId: string, key: string, quantity: number, now: number): Promise<number> {
    if (quantity <= 0) return 0;
    const [x] = await this.q(`WITH u AS (
                                INSERT INTO usage (account_id, request_id, item_key, product, unit, quantity, unit_price_micros, amount_micros, created_at)
                                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (item_key) DO NOTHING RETURNING amount_micros),
                              a AS (UPDATE accounts SET balance_micros = balance_micros - u.amount_micros FROM u WHERE accounts.id = $1 RETURNING 1)
                              SELECT COUNT(*) AS n FROM u`,
    [r.account_id, requestId, key, r.product, r.unit, quantity, r.unit_price_micros, quantity * r.unit_price_micros, now], c);
    return x.n > 0 ? quantity : 0;
  }

  /** What ending a request entails beyond its status: the duplicate surcharge and the webhook row. */
  private async finished(c: Client, r: Row, now: number): Promise<RequestRow> {
    if (r.drop_duplicates) {
      const kept = (await this.q('SELECT COUNT(*) AS n FROM request_keys WHERE request_id = $1', [r.id], c))[0].n as number;
      const dropped = duplicateSurcharge(r.records, Number(kept));
      if (dropped > 0) {
        const billed = await this.bill(c, r, r.id, `dup:${r.id}`, dropped, now);
        if (billed) [r] = await this.q('UPDATE requests SET usage = usage + $2 WHERE id = $1 RETURNING *', [r.id, billed], c);
      }
    }
    await this.onFinished(c, r, now);
    return toRequest(r);
  }

  private async onFinished(c: Client, r: Row, now: number): Promise<void> {
    await this.q(`INSERT INTO webhook_deliveries (id, account_id, request_id, url, next_at)
                  SELECT $1, $2, $1, u.url, $4 FROM (SELECT COALESCE($3::text, (SELECT webhook_url FROM accounts WHERE id = $2)) AS url) u
                  WHERE u.url IS NOT NULL ON CONFLICT (id) DO NOTHING`, [r.id, r.account_id, r.webhook, now], c);
  }

  /*
   * One statement does the whole completion. Run on its own (autocommit), the hot rows (the request,
   * shared by its items, and the account, shared by all its requests) stay locked only while it runs,
   * not for further round trips. Locks are taken item, then account, then request:
   *   it    locks the item if this owner still leases it (no row: nothing below writes anything)
   *   keys  with dropDuplicates, records the identity keys not seen before in the request (not when
   *         the account already cannot pay, as far as the statement's snapshot shows)
   *   q     what the item costs, as src/billing/rule.ts decided it before the statement ($8 when empty
   *         queries are free, $9 when they cost one, $12: bill the new keys instead); the statement
   *         only picks by the request's empty_costs_one and counts the new keys; `places` is what the
   *         per-place products (enrichments, x: $13-$15) bill
   *   pay   charges the account the whole item (own product and enrichments) only while its balance plus
   *         credit is above zero: a conditional UPDATE, re-checked on the row's latest version when a
   *         concurrent charge held it (src/billing/credit.ts); `ok.paid` says whether it did
   *   prog  drops the item's checkpoint (how many chunks it saved: a streamed query's first records)
   *   res   stores the records (a result already there is kept), after those chunks when streamed ($10);
   *         unpaid: no records and the BALANCE_EXHAUSTED reason ($16)
   *   unchunk deletes the chunks of a query that was not streamed (a buffering adapter's checkpoint) or not paid
   *   bill, extra  the usage lines, unique per item and product (paid only)
   *   req   counts the item on its request and, when it was the last one, ends the request
   *   hook  creates the webhook delivery of a request that just ended
   * $7 (alone; $5 in FAIL) = true: the statement is its own transaction and leaves dropDuplicates requests alone,
   * because their end needs the keys counted by a later statement (see finished()); those go through
   * an explicit transaction with $7 = false, where finished() adds the surcharge and the webhook row.
   */
  private static readonly COMPLETE = `
    WITH it AS (
      SELECT w.id, w.request_id, w.query_index, r.account_id, r.product, r.unit, r.unit_price_micros, r.empty_costs_one, r.drop_duplicates
      FROM work_items w JOIN requests r ON r.id = w.request_id
      WHERE w.id = $1 AND w.state = 'leased' AND w.lease_owner = $2 AND r.status = 'Pending' AND NOT ($7 AND r.drop_duplicates)
      FOR UPDATE OF w),
    keys AS (INSERT INTO request_keys (request_id, key)
             SELECT DISTINCT it.request_id, k FROM it, unnest($5::text[]) AS k
             WHERE it.drop_duplicates AND EXISTS (SELECT 1 FROM accounts a WHERE a.id = it.account_id AND a.balance_micros + a.credit_limit_micros > 0)
             ON CONFLICT DO NOTHING RETURNING 1),
    q AS (SELECT it.*, CASE WHEN $12::boolean AND it.drop_duplicates THEN (SELECT COUNT(*) FROM keys)
                            WHEN it.empty_costs_one THEN $9::bigint ELSE $8::bigint END AS quantity,
                       CASE WHEN $12::boolean AND it.drop_duplicates THEN (SELECT COUNT(*) FROM keys) ELSE $8::bigint END AS places
          FROM it),
    x AS (SELECT * FROM unnest($13::text[], $14::text[], $15::bigint[]) AS x(product, unit, price)),
    pay AS (UPDATE accounts a SET balance_micros = a.balance_micros - q.quantity * q.unit_price_micros
                                                   - q.places * (SELECT COALESCE(SUM(price), 0) FROM x)
            FROM q WHERE a.id = q.account_id AND a.balance_micros + a.credit_limit_micros > 0
            RETURNING a.id),
    ok AS (SELECT EXISTS (SELECT 1 FROM pay) AS paid),
    prog AS (DELETE FROM item_progress p USING it WHERE p.request_id = it.request_id AND p.query_index = it.query_index RETURNING p.chunks),
    res AS (INSERT INTO results (request_id, query_index, records, count, error, chunks)
            SELECT request_id, query_index, CASE WHEN ok.paid THEN $3 ELSE '[]' END, CASE WHEN ok.paid THEN $4::int ELSE 0 END,
                   CASE WHEN ok.paid THEN $11::text ELSE $16::text END,
                   CASE WHEN ok.paid AND $10::boolean THEN COALESCE((SELECT chunks FROM prog), 0) ELSE 0 END
            FROM it, ok ON CONFLICT DO NOTHING),
    unchunk AS (DELETE FROM result_chunks c USING it, ok WHERE (NOT $10::boolean OR NOT ok.paid) AND c.request_id = it.request_id AND c.query_index = it.query_index),
    done AS (UPDATE work_items w SET state = CASE WHEN ok.paid THEN 'done' ELSE 'failed' END, lease_owner = NULL, lease_until = NULL,
               error = CASE WHEN ok.paid THEN NULL ELSE $16::text END
             FROM it, ok WHERE w.id = it.id),
    bill AS (INSERT INTO usage (account_id, request_id, item_key, product, unit, quantity, unit_price_micros, amount_micros, created_at)
             SELECT account_id, request_id, id, product, unit, quantity, unit_price_micros, quantity * unit_price_micros, $6 FROM q, ok
             WHERE ok.paid AND quantity > 0
             ON CONFLICT (item_key) DO NOTHING RETURNING quantity),
    extra AS (INSERT INTO usage (account_id, request_id, item_key, product, unit, quantity, unit_price_micros, amount_micros, created_at)
              SELECT q.account_id, q.request_id, q.id || '|' || x.product, x.product, x.unit, q.places, x.price, q.places * x.price, $6
              FROM q, ok, x WHERE ok.paid AND q.places > 0
              ON CONFLICT (item_key) DO NOTHING),
    req AS (UPDATE requests r SET queries_done = r.queries_done + 1, queries_ok = r.queries_ok + ok.paid::int,
              records = r.records + CASE WHEN ok.paid THEN $4::int ELSE 0 END,
              usage = r.usage + COALESCE((SELECT quantity FROM bill), 0),
              status = CASE WHEN r.queries_done + 1 < r.queries_total THEN r.status WHEN r.queries_ok + ok.paid::int > 0 THEN 'Success' ELSE 'Failure' END,
              finished_at = CASE WHEN r.queries_done + 1 >= r.queries_total THEN $6 ELSE r.finished_at END
            FROM it, ok WHERE r.id = it.request_id
            RETURNING r.*, NOT ok.paid AS balance_exhausted),
    hook AS (${hookCte('$6', '$7')})
    SELECT * FROM req`;

  /** The same for an item that failed for good: an empty result with the error, nothing billed. */
  private static readonly FAIL = `
    WITH it AS (
      SELECT w.id, w.request_id, w.query_index
      FROM work_items w JOIN requests r ON r.id = w.request_id
      WHERE w.id = $1 AND w.state = 'leased' AND w.lease_owner = $2 AND r.status = 'Pending' AND NOT ($5 AND r.drop_duplicates)
      FOR UPDATE OF w),
    res AS (INSERT INTO results (request_id, query_index, records, count, error)
            SELECT request_id, query_index, '[]', 0, $3 FROM it ON CONFLICT DO NOTHING),
    prog AS (DELETE FROM item_progress p USING it WHERE p.request_id = it.request_id AND p.query_index = it.query_index),
    unchunk AS (DELETE FROM result_chunks c USING it WHERE c.request_id = it.request_id AND c.query_index = it.query_index),
    done AS (UPDATE work_items w SET state = 'failed', lease_owner = NULL, lease_until = NULL, error = $3 FROM it WHERE w.id = it.id),
    req AS (UPDATE requests r SET queries_done = r.queries_done + 1,
              status = CASE WHEN r.queries_done + 1 >= r.queries_total THEN CASE WHEN r.queries_ok > 0 THEN 'Success' ELSE 'Failure' END ELSE r.status END,
              finished_at = CASE WHEN r.queries_done + 1 >= r.queries_total THEN $4 ELSE r.finished_at END
            FROM it WHERE r.id = it.request_id
            RETURNING r.*),
    hook AS (${hookCte('$4', '$5')})
    SELECT * FROM req`;

  /** Runs COMPLETE or FAIL alone; when that cannot apply (a dropDuplicates request, or an item this
   *  owner no longer holds) runs it again in a transaction that can end any request, or says no. */
  private async endItem(sql: string, args: (alone: boolean) => unknown[], now: number): Promise<FanIn> {
    const [fast] = await this.q(sql, args(true));
    if (fast) return PostgresStore.fanIn(fast, fast.status === 'Pending' ? null : toRequest(fast));
    return this.tx(async (c): Promise<FanIn> => {
      const [r] = await this.q(sql, args(false), c);
      if (!r) return { applied: false, finished: null };
      return PostgresStore.fanIn(r, r.status === 'Pending' ? null : await this.finished(c, r, now));
    });
  }

  /** An applied change: what it ended, and whether the credit rule refused the completion. */
  private static fanIn(r: Row, finished: RequestRow | null): FanIn {
    return r.balance_exhausted ? { applied: true, finished, balanceExhausted: true } : { applied: true, finished };
  }

  private static completeArgs(o: ItemOutcome & { cutByTotal?: boolean }, alone: boolean): unknown[] {
    // The billing rule (src/billing/rule.ts), decided here; the statement picks by what it holds.
    // `deduped` is only a candidate: the statement bills by new keys for dropDuplicates requests alone.
    const b = itemBilling({ count: o.count, units: o.units, cutByTotal: o.cutByTotal, deduped: !!o.dedupeKeys });
    const x = o.extraProducts ?? [];
    return [o.itemId, o.owner, o.recordsJson, o.count, o.dedupeKeys ?? null, o.now, alone, b.emptyFree, b.emptyCostsOne, !!o.streamed, o.note ?? null, b.byNewKeys,
      x.map((e) => e.product), x.map((e) => e.unit), x.map((e) => e.unitPriceMicros), BALANCE_EXHAUSTED];
  }

  async completeItem(o: ItemOutcome): Promise<FanIn> {
    if (o.totalLimit === undefined) return this.endItem(PostgresStore.COMPLETE, (alone) => PostgresStore.completeArgs(o, alone), o.now);
    // totalLimit: the records the request kept so far decide the cut, so they are read under the
    // request's row lock (item first, then request: the usual order) and concurrent items of one
    // request never deliver or bill past the limit.
    return this.tx(async (c): Promise<FanIn> => {
      const [it] = await this.q(`SELECT request_id FROM work_items WHERE id = $1 AND state = 'leased' AND lease_owner = $2 FOR UPDATE`, [o.itemId, o.owner], c);
      if (!it) return { applied: false, finished: null };
      const [req] = await this.q('SELECT records FROM requests WHERE id = $1 FOR UPDATE', [it.request_id], c);
      const [r] = await this.q(PostgresStore.COMPLETE, PostgresStore.completeArgs(capToTotal(o, req.records), false), c);
      if (!r) return { applied: false, finished: null };
      return PostgresStore.fanIn(r, r.status === 'Pending' ? null : await this.finished(c, r, o.now));
    });
  }

  async failItem(itemId: string, owner: string, error: string, retryAt: number | null, now: number): Promise<FanIn> {
    if (retryAt !== null) {
      const n = await this.n(`UPDATE work_items w SET state = 'queued', lease_owner = NULL, lease_until = NULL, run_after = $3, error = $4
                              FROM requests r WHERE w.id = $1 AND w.state = 'leased' AND w.lease_owner = $2
                              AND r.id = w.request_id AND r.status = 'Pending'`, [itemId, owner, retryAt, error]);
      return { applied: n > 0, finished: null };
    }
    return this.endItem(PostgresStore.FAIL, (alone) => [itemId, owner, error, now, alone], now);
  }

  async releaseItems(owner: string, now: number): Promise<number> {
    // attempts is decremented: a hand-back on shutdown is not a failed attempt.
    return this.n(`UPDATE work_items SET state = 'queued', lease_owner = NULL, lease_until = NULL, run_after = $1, attempts = GREATEST(attempts - 1, 0)
                   WHERE state = 'leased' AND lease_owner = $2`, [now, owner]);
  }

  async cancelRequest(requestId: string, now: number): Promise<FanIn> {
    return this.tx(async (c): Promise<FanIn> => {
      const [cur] = await this.q('SELECT status FROM requests WHERE id = $1', [requestId], c);
      if (!cur || cur.status !== 'Pending') return { applied: false, finished: null };
      // Items first, request last: the same lock order as completeItem, so the two never deadlock, and a
      // completion that holds an item commits before the cancel counts what is still open.
      const open = await this.n(`UPDATE work_items SET state = 'cancelled', lease_owner = NULL, lease_until = NULL
                                 WHERE request_id = $1 AND state IN ('queued', 'leased')`, [requestId], c);
      // Conditional: a completion that ended the request meanwhile wins (its items were all ended, so
      // the update above changed nothing).
      const [row] = await this.q(`UPDATE requests SET cancelled = true, status = 'Failure', finished_at = $2, queries_done = queries_done + $3
                                  WHERE id = $1 AND status = 'Pending' RETURNING *`, [requestId, now, open], c);
      if (!row) return { applied: false, finished: null };
      await this.onFinished(c, row, now);
      return { applied: true, finished: toRequest(row) };
    });
  }

  async itemCounts(): Promise<Record<ItemState, number>> {
    const out: Record<ItemState, number> = { queued: 0, leased: 0, done: 0, failed: 0, cancelled: 0 };
    for (const r of await this.q('SELECT state, COUNT(*) AS n FROM work_items GROUP BY state')) out[r.state as ItemState] = r.n;
    return out;
  }

  async queuedItemIds(limit: number): Promise<string[]> {
    return (await this.q(`SELECT id FROM work_items WHERE state IN ('queued', 'leased') ORDER BY run_after LIMIT $1`, [limit])).map((r) => r.id);
  }

  /**
   * Items a worker could claim right now (queued and due, or leased with an expired lease), with their
   * attempt count (see Store.runnableItems).
   *
   * @example await store.runnableItems(Date.now(), 500) // [{ id: 'req:0', attempts: 1 }]
   */
  async runnableItems(now: number, limit: number): Promise<{ id: string; attempts: number }[]> {
    return (await this.q(`(SELECT id, attempts FROM work_items WHERE state = 'queued' AND run_after <= $1 ORDER BY run_after LIMIT $2)
                          UNION ALL
                          (SELECT id, attempts FROM work_items WHERE state = 'leased' AND lease_until < $1 ORDER BY lease_until LIMIT $2)
                          LIMIT $2`, [now, limit])).map((r) => ({ id: r.id, attempts: r.attempts }));
  }

  // ---------------------------------------------------------------- billing
  async chargeUsage(c: DirectCharge): Promise<boolean> {
    if (c.quantity <= 0) return true;
    // The account row is locked while it is checked, so two answers cannot both pass on the last cent.
    const { rows } = await this.durable(`WITH ok AS (SELECT id FROM accounts WHERE id = $1 AND NOT past_due AND balance_micros + credit_limit_micros > 0 FOR UPDATE),
        u AS (INSERT INTO usage (account_id, request_id, item_key, product, unit, quantity, unit_price_micros, amount_micros, created_at)
              SELECT $1, $2, $2, $3, $4, $5::bigint, $6::bigint, $5::bigint * $6::bigint, $7 FROM ok ON CONFLICT (item_key) DO NOTHING RETURNING amount_micros),
        a AS (UPDATE accounts SET balance_micros = balance_micros - u.amount_micros FROM u WHERE accounts.id = $1)
      SELECT COUNT(*) AS n FROM ok`, [c.accountId, c.key, c.product, c.unit, c.quantity, c.unitPriceMicros, c.now]);
    return Number(rows[0].n) > 0;
  }

  async rollupUsage(before: number, limit?: number): Promise<number> {
    // One statement: the lines are deleted and their sums added in the same snapshot; SKIP LOCKED and
    // DELETE ... RETURNING (only the rows this statement removed) keep two janitors from counting a line twice.
    const [r] = await this.q(`WITH pick AS (SELECT id FROM usage WHERE item_key NOT LIKE 'day:%' AND created_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED),
      gone AS (DELETE FROM usage u USING pick WHERE u.id = pick.id RETURNING u.account_id, u.product, u.unit, u.unit_price_micros, u.quantity, u.amount_micros,
                 (u.created_at / 86400000) * 86400000 AS day),
      sums AS (SELECT account_id, product, unit, unit_price_micros, day, SUM(quantity)::bigint AS quantity, SUM(amount_micros)::bigint AS amount_micros,
                 'day:' || to_char(to_timestamp(day / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD') || '|' || account_id || '|' || product || '|' || unit || '|' || unit_price_micros AS k
               FROM gone GROUP BY account_id, product, unit, unit_price_micros, day),
      ins AS (INSERT INTO usage (account_id, request_id, item_key, product, unit, quantity, unit_price_micros, amount_micros, created_at)
              SELECT account_id, k, k, product, unit, quantity, unit_price_micros, amount_micros, day FROM sums
              ON CONFLICT (item_key) DO UPDATE SET quantity = usage.quantity + excluded.quantity, amount_micros = usage.amount_micros + excluded.amount_micros)
      SELECT count(*)::int AS n FROM gone`, [before, limit ?? null]);
    return r.n as number;
  }

  async usageForPeriod(accountId: string, start: number, end: number): Promise<UsageLine[]> {
    return (await this.q(`SELECT product, unit, unit_price_micros, SUM(quantity) AS quantity, SUM(amount_micros) AS amount_micros FROM usage
                          WHERE account_id = $1 AND created_at >= $2 AND created_at < $3 GROUP BY product, unit, unit_price_micros ORDER BY product`,
    [accountId, start, end])).map(toUsageLine);
  }

  // ---------------------------------------------------------------- webhooks
  async claimDueWebhooks(now: number, max: number, leaseMs: number): Promise<WebhookDelivery[]> {
    const rows = await this.q(`WITH pick AS (
                                 SELECT id FROM webhook_deliveries WHERE state = 'pending' AND next_at <= $1 AND (lease_until IS NULL OR lease_until < $1)
                                 ORDER BY next_at LIMIT $2 FOR UPDATE SKIP LOCKED)
                               UPDATE webhook_deliveries d SET lease_until = $3 FROM pick WHERE d.id = pick.id
                               RETURNING d.id, d.account_id, d.request_id, d.url, d.attempts, d.next_at`, [now, max, now + leaseMs]);
    return rows.sort((a, b) => a.next_at - b.next_at)
      .map((r) => ({ id: r.id, accountId: r.account_id, requestId: r.request_id, url: r.url, attempts: r.attempts }));
  }

  async recordWebhookAttempt(id: string, statusCode: number, ok: boolean, nextAt: number | null, now: number): Promise<void> {
    const state = ok ? 'delivered' : nextAt === null ? 'failed' : 'pending';
    await this.q(`WITH d AS (UPDATE webhook_deliveries SET attempts = attempts + 1, state = $2, next_at = $3, lease_until = NULL
                             WHERE id = $1 RETURNING account_id)
                  INSERT INTO webhook_calls (account_id, delivery_id, status_code, created_at)
                  SELECT account_id, $1, $4, $5 FROM d WHERE NOT $6::boolean`, [id, state, nextAt, statusCode, now, ok]);
  }

  async listWebhookCalls(accountId: string, since: number, limit: number): Promise<WebhookCall[]> {
    return (await this.q(`SELECT status_code, created_at FROM webhook_calls WHERE account_id = $1 AND created_at >= $2
                          ORDER BY created_at DESC, id DESC LIMIT $3`, [accountId, since, limit]))
      .map((r) => ({ status: `Status code: ${r.status_code}`, date: Math.floor(r.created_at / 1000) }));
  }

  // ---------------------------------------------------------------- tasks
  async createTask(t: TaskRow): Promise<void> {
    await this.q(`INSERT INTO tasks (id, account_id, request_id, service_name, queries, tags, spec, status, format, file_token, file_path, results, created, updated, queue_task_id)
                  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
    [t.id, t.accountId, t.requestId, t.serviceName, JSON.stringify(t.queries), JSON.stringify(t.tags), JSON.stringify(t.spec), t.status,
      t.format, t.fileToken, t.filePath, JSON.stringify(t.results), t.created, t.updated, t.queueTaskId]);
  }

  async getTask(id: string): Promise<TaskRow | null> {
    const [r] = await this.q('SELECT * FROM tasks WHERE id = $1', [id]);
    return r ? toTask(r) : null;
  }

  async getTaskByRequest(requestId: string): Promise<TaskRow | null> {
    const [r] = await this.q('SELECT * FROM tasks WHERE request_id = $1 LIMIT 1', [requestId]);
    return r ? toTask(r) : null;
  }

  async strandedTasks(limit: number): Promise<TaskRow[]> {
    const rows = await this.q(`SELECT t.* FROM tasks t JOIN requests r ON r.id = t.request_id
                               WHERE t.status IN ('PENDING', 'RUNNING') AND r.finished_at IS NOT NULL ORDER BY t.id LIMIT $1`, [limit]);
    return rows.map(toTask);
  }

  async getTaskByFileToken(token: string): Promise<TaskRow | null> {
    const [r] = await this.q('SELECT * FROM tasks WHERE file_token = $1', [token]);
    return r ? toTask(r) : null;
  }

  async updateTask(id: string, patch: Partial<Pick<TaskRow, 'status' | 'fileToken' | 'filePath' | 'results' | 'updated' | 'requestId'>>): Promise<void> {
    const sets: string[] = [];
    const args: unknown[] = [id];
    for (const [k, v] of Object.entries(patch)) {
      const col = TASK_COLUMNS[k];
      if (!col || v === undefined) continue;
      args.push(k === 'results' ? JSON.stringify(v) : v);
      sets.push(`${col} = $${args.length}`);
    }
    if (sets.length) await this.q(`UPDATE tasks SET ${sets.join(', ')} WHERE id = $1`, args);
  }

  async listTasks(accountId: string, o: { tag?: string; lastId?: string; limit: number }): Promise<TaskRow[]> {
    const where = ['account_id = $1'];
    const args: unknown[] = [accountId];
    if (o.lastId) { args.push(o.lastId); where.push(`id < $${args.length}`); }
    if (o.tag) {
      args.push(o.tag);
      const p = `$${args.length}`;
      // Same match as SQLite: an exact tag, or a case-insensitive substring of the service name or of
      // the queries' JSON text.
      where.push(`(tags @> jsonb_build_array(${p}::text) OR strpos(lower(service_name), lower(${p}::text)) > 0
                   OR strpos(lower(queries::text), lower(${p}::text)) > 0)`);
    }
    args.push(o.limit);
    return (await this.q(`SELECT * FROM tasks WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT $${args.length}`, args)).map(toTask);
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
