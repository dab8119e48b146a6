/**
 * The embedded store: one SQLite file (WAL) through better-sqlite3. Synchronous calls wrapped in the
 * async contract; every multi-row change is one transaction, which is what makes billing and result
 * writes exactly-once (see src/store/contract.ts).
 *
 * @example
 *   const store = await openSqliteStore('./data/trawl.db');
 *   await store.createAccount({...});
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createPrivately } from './private-file.ts';
import { isStoreUnavailable } from '../unavailable.ts';
import { duplicateSurcharge, itemBilling, itemQuantity } from '../../billing/rule.ts';
import { BALANCE_EXHAUSTED } from '../../billing/credit.ts';
import { dirname } from 'node:path';
import type {
  Account, ApiKeyRow, Checkpoint, DirectCharge, ExtraProduct, FanIn, ItemOutcome, ItemState, NewRequest, Progress, QueryResult, RequestRow,
  Store, TaskRow, UsageLine, WebhookCall, WebhookDelivery, WorkItem,
} from '../contract.ts';
import { migrationsIn } from '../migrations.ts';
import { recordsCodec, unpackRecords, type RecordsCodec } from '../records-codec.ts';
import { capToTotal } from '../cap.ts';
import { ACCOUNT_COLUMNS, CHUNK_PAGE, TASK_COLUMNS, chunkTexts, rowMappers, splitItemId, toAccount, toUsageLine } from '../rows.ts';
import { randomBytes, randomUUID } from 'node:crypto';

type Row = Record<string, any>;

/**
 * The primary-key range of a request's work items: ids are `<request id>:<index>` and ';' follows ':'
 * in byte order (SQLite's default BINARY collation), so `[id + ':', id + ';')` holds exactly them.
 *
 * @example itemRange('r1') // ['r1:', 'r1;']
 */
const itemRange = (requestId: string): [string, string] => [`${requestId}:`, `${requestId};`];

const { toRequest, toTask } = rowMappers(JSON.parse);

export class SqliteStore implements Store {
  readonly kind = 'sqlite' as const;
  readonly db: Database.Database;
  private st: Record<string, Database.Statement> = {};
  /** Records are stored compressed (issue 15; src/store/records-codec.ts). */
  private codec: RecordsCodec;

  /** `compression`: brotli quality, null = records stored as text (default 1). */
  constructor(file: string, opts: { compression?: number | null } = {}) {
    this.codec = recordsCodec(opts.compression === undefined ? 1 : opts.compression);
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    createPrivately(file);
    this.db = new Database(file);
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

  private pending: { run: () => unknown; resolve: (v: any) => void; reject: (e: unknown) => void }[] = [];

  /**
   * Group commit: writes that arrive in the same event-loop turn share one transaction (each in its
   * own savepoint, so one failing write rolls back alone). A commit is the expensive part of a small
   * write; under load this turns N commits into one. Callers still resolve only after the commit.
   */
  private grouped<T>(fn: () => T): Promise<T> {
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
      this.db.transaction(() => { results = batch.map((op) => op.run()); })();
      batch.forEach((op, i) => op.resolve(results[i]));
      return;
    } catch {
      // fall through to the careful path
    }
    const careful: { ok: boolean; v: unknown }[] = [];
    try {
      this.db.transaction(() => {
        for (const op of batch) {
          try {
            careful.push({ ok: true, v: this.db.transaction(op.run)() });
          } catch (e) {
            // A full disk or an I/O error may have rolled the whole transaction back already (SQLite
            // does so on SQLITE_FULL/IOERR/NOMEM): the batch fails as one, and is retried as one.
            if (isStoreUnavailable(e)) throw e;
            careful.push({ ok: false, v: e });
          }
        }
      })();
    } catch (e) {
      for (const op of batch) op.reject(e);
      return;
    }
    batch.forEach((op, i) => (careful[i].ok ? op.resolve(careful[i].v) : op.reject(careful[i].v)));
  }

  private s(sql: string): Database.Statement {
    return (this.st[sql] ??= this.db.prepare(sql));
  }

  async migrate(): Promise<void> {
    this.db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
    const done = new Set((this.db.prepare('SELECT version FROM schema_migrations').all() as Row[]).map((r) => r.version));
    for (const m of migrationsIn(new URL('./migrations/', import.meta.url))) {
      if (done.has(m.version)) continue;
      this.db.transaction(() => {
        this.db.exec(m.sql);
        this.db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(m.version, m.name, Date.now());
      })();
    }
  }

  async close(): Promise<void> {
    if (this.pending.length) this.flush();
    this.db.close();
  }

  async ping(): Promise<void> {
    this.s('SELECT 1').get();
  }

  /** Pages in use (free pages are reused before the file grows) plus the write-ahead log. */
  async sizeBytes(): Promise<number> {
    const pages = (this.db.pragma('page_count', { simple: true }) as number) - (this.db.pragma('freelist_count', { simple: true }) as number);
    const wal = this.db.memory ? 0 : await stat(`${this.db.name}-wal`).then((s) => s.size, () => 0);
    return pages * (this.db.pragma('page_size', { simple: true }) as number) + wal;
  }

  // ---------------------------------------------------------------- accounts and keys
  async createAccount(a: Omit<Account, 'createdAt'> & { createdAt?: number }): Promise<Account> {
    const createdAt = a.createdAt ?? Date.now();
    this.s(`INSERT INTO accounts (id, name, balance_micros, credit_limit_micros, currency, past_due, webhook_secret, webhook_url, rate_per_sec, burst, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(a.id, a.name, a.balanceMicros, a.creditLimitMicros, a.currency, a.pastDue ? 1 : 0, a.webhookSecret, a.webhookUrl, a.ratePerSec, a.burst, createdAt);
    return { ...a, createdAt };
  }

  async getAccount(id: string): Promise<Account | null> {
    const r = this.s('SELECT * FROM accounts WHERE id = ?').get(id) as Row | undefined;
    return r ? toAccount(r) : null;
  }

  async listAccounts(): Promise<Account[]> {
    return (this.s('SELECT * FROM accounts ORDER BY created_at').all() as Row[]).map(toAccount);
  }

  async countAccounts(): Promise<number> {
    return (this.s('SELECT COUNT(*) AS n FROM accounts').get() as Row).n;
  }

  async updateAccount(id: string, patch: Partial<Omit<Account, 'id' | 'createdAt' | 'balanceMicros'>>): Promise<void> {
    for (const [k, v] of Object.entries(patch)) {
      const col = ACCOUNT_COLUMNS[k];
      if (!col || v === undefined) continue;
      this.db.prepare(`UPDATE accounts SET ${col} = ? WHERE id = ?`).run(typeof v === 'boolean' ? (v ? 1 : 0) : v, id);
    }
  }

  async addBalance(id: string, amountMicros: number): Promise<number> {
    const r = this.s('UPDATE accounts SET balance_micros = balance_micros + ? WHERE id = ? RETURNING balance_micros').get(amountMicros, id) as Row | undefined;
    if (!r) throw new Error(`no account ${id}`);
    return r.balance_micros;
  }

  async addApiKey(accountId: string, keyHash: string, prefix: string, now: number): Promise<ApiKeyRow> {
    const id = randomUUID();
    this.s('INSERT INTO api_keys (id, account_id, key_hash, prefix, created_at) VALUES (?, ?, ?, ?, ?)').run(id, accountId, keyHash, prefix, now);
    return { id, accountId, prefix, createdAt: now, revokedAt: null };
  }

  async findKey(keyHash: string) {
    const r = this.s(`SELECT k.id AS key_id, k.key_hash, a.* FROM api_keys k JOIN accounts a ON a.id = k.account_id
                      WHERE k.key_hash = ? AND k.revoked_at IS NULL`).get(keyHash) as Row | undefined;
    return r ? { account: toAccount(r), keyHash: r.key_hash as string, keyId: r.key_id as string } : null;
  }

  async listApiKeys(accountId: string): Promise<ApiKeyRow[]> {
    return (this.s('SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at').all(accountId) as Row[]).map((r) => ({
      id: r.id, accountId: r.account_id, prefix: r.prefix, createdAt: r.created_at, revokedAt: r.revoked_at ?? null,
    }));
  }

  async revokeApiKey(keyId: string, now: number): Promise<boolean> {
    return this.s('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(now, keyId).changes > 0;
  }

  // ---------------------------------------------------------------- prices
  async setPrice(product: string, unitPriceMicros: number, accountId?: string | null): Promise<void> {
    this.s(`INSERT INTO prices (account_id, product, unit_price_micros) VALUES (?, ?, ?)
            ON CONFLICT (account_id, product) DO UPDATE SET unit_price_micros = excluded.unit_price_micros`)
      .run(accountId ?? '', product, unitPriceMicros);
  }

  async getPrice(product: string, accountId: string): Promise<number | null> {
    const r = this.s(`SELECT unit_price_micros FROM prices WHERE product = ? AND account_id IN (?, '') ORDER BY account_id DESC LIMIT 1`).get(product, accountId) as Row | undefined;
    return r ? r.unit_price_micros : null;
  }

  // ---------------------------------------------------------------- requests
  async createRequest(r: NewRequest): Promise<void> {
    const ins = this.s(`INSERT INTO requests (id, account_id, endpoint, params, queries_total, webhook, product, unit, unit_price_micros,
                        empty_costs_one, drop_duplicates, task_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    const item = this.s('INSERT INTO work_items (id, request_id, query_index, query, max_attempts, run_after) VALUES (?, ?, ?, ?, ?, ?)');
    await this.grouped(() => {
      ins.run(r.id, r.accountId, r.endpoint, JSON.stringify(r.params), r.queries.length, r.webhook, r.product, r.unit, r.unitPriceMicros,
        r.emptyCostsOne ? 1 : 0, r.dropDuplicates ? 1 : 0, r.taskId, r.createdAt);
      r.queries.forEach((q, i) => item.run(`${r.id}:${i}`, r.id, i, q, r.maxAttempts, r.createdAt));
    });
  }

  async getRequest(id: string): Promise<RequestRow | null> {
    const r = this.s('SELECT * FROM requests WHERE id = ?').get(id) as Row | undefined;
    return r ? toRequest(r) : null;
  }

  async listRequests(accountId: string, o: { finished: boolean; since: number; skip: number; limit: number }): Promise<RequestRow[]> {
    const cond = o.finished ? 'finished_at IS NOT NULL' : 'finished_at IS NULL';
    return (this.s(`SELECT * FROM requests WHERE account_id = ? AND created_at >= ? AND ${cond} ORDER BY created_at DESC, id LIMIT ? OFFSET ?`)
      .all(accountId, o.since, o.limit, o.skip) as Row[]).map(toRequest);
  }

  async *readResults(requestId: string, afterIndex = -1): AsyncIterable<QueryResult> {
    // Iterated in pages so a 1000 x 500 result never sits in memory whole.
    const page = this.s(`SELECT r.query_index, r.records, r.count, r.error, r.chunks, w.query FROM results r
                         JOIN work_items w ON w.id = r.request_id || ':' || r.query_index
                         WHERE r.request_id = ? AND r.query_index > ? ORDER BY r.query_index LIMIT 20`);
    let after = afterIndex;
    for (;;) {
      const rows = page.all(requestId, after) as Row[];
      for (const r of rows) {
        const base = { queryIndex: r.query_index, query: r.query, count: r.count, error: r.error ?? null };
        if (r.chunks > 0) for await (const part of this.chunksOf(requestId, r.query_index)) yield { ...base, recordsJson: part, more: true };
        yield { ...base, recordsJson: unpackRecords(r.records) };
      }
      if (rows.length < 20) return;
      after = rows[rows.length - 1].query_index;
    }
  }

  /** The saved chunks of one query, a page of rows at a time. */
  private chunksOf(requestId: string, queryIndex: number): AsyncIterable<string> {
    const page = this.s(`SELECT chunk, records FROM result_chunks WHERE request_id = ? AND query_index = ? AND chunk > ? ORDER BY chunk LIMIT ${CHUNK_PAGE}`);
    return chunkTexts((after) => (page.all(requestId, queryIndex, after) as Row[]).map((r) => ({ chunk: r.chunk, records: unpackRecords(r.records) })));
  }

  readChunks(itemId: string): AsyncIterable<string> {
    return this.chunksOf(...splitItemId(itemId));
  }

  async saveProgress(c: Checkpoint): Promise<boolean> {
    return this.grouped(() => {
      const it = this.ownedItem(c.itemId, c.owner);
      if (!it || it.status !== 'Pending') return false;
      const cur = this.s('SELECT chunks FROM item_progress WHERE request_id = ? AND query_index = ?').get(it.request_id, it.query_index) as Row | undefined;
      const n = cur?.chunks ?? 0;
      if (c.chunk) {
        this.s('INSERT INTO result_chunks (request_id, query_index, chunk, records, count) VALUES (?, ?, ?, ?, ?)')
          .run(it.request_id, it.query_index, n, this.codec.pack(c.chunk.recordsJson), c.chunk.count);
      }
      this.s(`INSERT INTO item_progress (request_id, query_index, state, chunks, records, updated_at) VALUES (?, ?, ?, ?, ?, ?)
              ON CONFLICT (request_id, query_index) DO UPDATE SET state = excluded.state, chunks = excluded.chunks,
                records = item_progress.records + excluded.records, updated_at = excluded.updated_at`)
        .run(it.request_id, it.query_index, c.state, c.chunk ? n + 1 : n, c.chunk?.count ?? 0, c.now);
      return true;
    });
  }

  async loadProgress(itemId: string): Promise<Progress | null> {
    const r = this.s('SELECT state, chunks, records FROM item_progress WHERE request_id = ? AND query_index = ?').get(...splitItemId(itemId)) as Row | undefined;
    return r ? { state: r.state, chunks: r.chunks, records: r.records } : null;
  }

  /** Drops an item's checkpoint; its chunks too unless they became its result. */
  private dropProgress(requestId: string, queryIndex: number, keepChunks: boolean): void {
    this.s('DELETE FROM item_progress WHERE request_id = ? AND query_index = ?').run(requestId, queryIndex);
    if (!keepChunks) this.s('DELETE FROM result_chunks WHERE request_id = ? AND query_index = ?').run(requestId, queryIndex);
  }

  async secret(name: string): Promise<string> {
    return this.grouped(() => {
      this.s('INSERT OR IGNORE INTO secrets (name, value, created_at) VALUES (?, ?, ?)').run(name, randomBytes(32).toString('base64url'), Date.now());
      return (this.s('SELECT value FROM secrets WHERE name = ?').get(name) as Row).value as string;
    });
  }

  async purge(resultsBefore: number, requestsBefore: number, limit = -1): Promise<number> {
    // Deleting a request makes SQLite look for work items still referencing it, and work_items has no
    // index on request_id (migration 002): with foreign keys on, that is a scan of every work item per
    // purged request. Their items are deleted just before, by key range, so the check is off here
    // (a pragma, so outside the transaction; nothing else runs on this connection meanwhile).
    this.db.pragma('foreign_keys = OFF');
    let n: number;
    try {
      n = this.purgeRows(resultsBefore, requestsBefore, limit);
    } finally {
      this.db.pragma('foreign_keys = ON');
    }
    // Returns the pages this batch freed (cost follows the batch; a no-op without auto_vacuum).
    if (n) this.db.pragma('incremental_vacuum');
    return n;
  }

  private purgeRows(resultsBefore: number, requestsBefore: number, limit: number): number {
    return this.db.transaction(() => {
      // Walks expired requests by the finished_at index and checks each for results by key, so the
      // cost follows what expired, not how many result rows are stored (LIMIT -1 = no limit).
      const ids = (this.s('SELECT id FROM requests q WHERE finished_at IS NOT NULL AND finished_at < ? AND EXISTS (SELECT 1 FROM results WHERE request_id = q.id) LIMIT ?')
        .all(resultsBefore, limit) as Row[]).map((r) => r.id as string);
      for (const id of ids) this.dropResults(id);
      const old = (this.s('SELECT id FROM requests WHERE created_at < ? AND finished_at IS NOT NULL LIMIT ?').all(requestsBefore, limit) as Row[]).map((r) => r.id as string);
      for (const id of old) {
        this.dropResults(id);
        this.s('DELETE FROM work_items WHERE id >= ? AND id < ? AND request_id = ?').run(...itemRange(id), id);
        this.s('DELETE FROM requests WHERE id = ?').run(id);
        // Its webhook delivery (keyed by the request id) once it ended: one row per request otherwise
        // kept forever (issue 15); one still retrying stays.
        this.s("DELETE FROM webhook_deliveries WHERE id = ? AND state <> 'pending'").run(id);
      }
      // Failed webhook calls (GET /webhook-calls shows the history period only).
      const calls = this.s('DELETE FROM webhook_calls WHERE id IN (SELECT id FROM webhook_calls WHERE created_at < ? LIMIT ?)').run(requestsBefore, limit).changes;
      return Math.max(ids.length, old.length, calls);
    })();
  }

  /** Deletes a request's results, their chunks and checkpoints, and its dropDuplicates keys. */
  private dropResults(id: string): void {
    for (const table of ['results', 'result_chunks', 'item_progress', 'request_keys']) this.s(`DELETE FROM ${table} WHERE request_id = ?`).run(id);
  }

  // ---------------------------------------------------------------- work items
  async claimItems(owner: string, max: number, leaseMs: number, now: number, ids?: string[]): Promise<WorkItem[]> {
    return this.db.transaction(() => {
      let rows: Row[];
      if (ids) {
        const q = this.s(`SELECT id FROM work_items WHERE id = ? AND ((state = 'queued' AND run_after <= ?) OR (state = 'leased' AND lease_until < ?))`);
        rows = ids.map((id) => q.get(id, now, now) as Row | undefined).filter((r): r is Row => !!r).slice(0, max);
      } else {
        rows = this.s(`SELECT id FROM work_items WHERE state = 'queued' AND run_after <= ? ORDER BY run_after LIMIT ?`).all(now, max) as Row[];
        if (rows.length < max) {
          rows = rows.concat(this.s(`SELECT id FROM work_items WHERE state = 'leased' AND lease_until < ? LIMIT ?`).all(now, max - rows.length) as Row[]);
        }
      }
      const lease = this.s(`UPDATE work_items SET state = 'leased', lease_owner = ?, lease_until = ?, attempts = attempts + 1 WHERE id = ?`);
      const get = this.s(`SELECT w.id, w.request_id, w.query_index, w.query, w.attempts, w.max_attempts, r.account_id, r.endpoint, r.params
                          FROM work_items w JOIN requests r ON r.id = w.request_id WHERE w.id = ?`);
      return rows.map((r) => {
        lease.run(owner, now + leaseMs, r.id);
        const x = get.get(r.id) as Row;
        return {
          id: x.id, requestId: x.request_id, accountId: x.account_id, endpoint: x.endpoint, queryIndex: x.query_index,
          query: x.query, params: JSON.parse(x.params), attempts: x.attempts, maxAttempts: x.max_attempts,
        };
      });
    })();
  }

  async heartbeat(owner: string, itemIds: string[], leaseUntil: number): Promise<void> {
    const u = this.s(`UPDATE work_items SET lease_until = ? WHERE id = ? AND lease_owner = ? AND state = 'leased'`);
    this.db.transaction(() => { for (const id of itemIds) u.run(leaseUntil, id, owner); })();
  }

  /** The leased item of this owner with its request, or null when the lease was lost. */
  private ownedItem(itemId: string, owner: string): Row | null {
    const r = this.s(`SELECT w.id, w.request_id, w.query_index, r.account_id, r.product, r.unit, r.unit_price_micros, r.empty_costs_one,
                        r.drop_duplicates, r.status
                      FROM work_items w JOIN requests r ON r.id = w.request_id
                      WHERE w.id = ? AND w.state = 'leased' AND w.lease_owner = ?`).get(itemId, owner) as Row | undefined;
    return r ?? null;
  }

  private bill(accountId: string, requestId: string, key: string, r: Row, quantity: number, now: number, other?: ExtraProduct): void {
    if (quantity <= 0) return;
    const [product, unit, price] = other ? [other.product, other.unit, other.unitPriceMicros] : [r.product, r.unit, r.unit_price_micros];
    const amount = quantity * price;
    const ins = this.s(`INSERT OR IGNORE INTO usage (account_id, request_id, item_key, product, unit, quantity, unit_price_micros, amount_micros, created_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(accountId, requestId, key, product, unit, quantity, price, amount, now);
    if (ins.changes === 0) return;
    this.s('UPDATE accounts SET balance_micros = balance_micros - ? WHERE id = ?').run(amount, accountId);
    // The request's usage counts its own product only.
    if (!other) this.s('UPDATE requests SET usage = usage + ? WHERE id = ?').run(quantity, requestId);
  }

  /** Ends the request when its last item ended; called inside the item's transaction. */
  private maybeFinish(requestId: string, now: number): RequestRow | null {
    const r = this.s(`UPDATE requests SET status = CASE WHEN queries_ok > 0 THEN 'Success' ELSE 'Failure' END, finished_at = ?
                      WHERE id = ? AND status = 'Pending' AND finished_at IS NULL AND queries_done >= queries_total RETURNING *`).get(now, requestId) as Row | undefined;
    if (!r) return null;
    if (r.drop_duplicates) {
      const kept = (this.s('SELECT COUNT(*) AS n FROM request_keys WHERE request_id = ?').get(requestId) as Row).n as number;
      this.bill(r.account_id, requestId, `dup:${requestId}`, r, duplicateSurcharge(r.records, kept), now);
    }
    this.onFinished(r, now);
    return toRequest(this.s('SELECT * FROM requests WHERE id = ?').get(requestId) as Row);
  }

  private onFinished(r: Row, now: number): void {
    const url = r.webhook ?? (this.s('SELECT webhook_url FROM accounts WHERE id = ?').get(r.account_id) as Row | undefined)?.webhook_url;
    if (url) {
      this.s(`INSERT OR IGNORE INTO webhook_deliveries (id, account_id, request_id, url, next_at) VALUES (?, ?, ?, ?, ?)`)
        .run(r.id, r.account_id, r.id, url, now);
    }
  }

  async completeItem(o: ItemOutcome & { cutByTotal?: boolean }): Promise<FanIn> {
    return this.grouped((): FanIn => {
      const it = this.ownedItem(o.itemId, o.owner);
      if (!it || it.status !== 'Pending') return { applied: false, finished: null };
      // The credit rule (src/billing/credit.ts): this transaction runs alone, so the check holds for the charge below.
      const pay = this.s('SELECT balance_micros + credit_limit_micros > 0 AS ok FROM accounts WHERE id = ?').get(it.account_id) as Row | undefined;
      if (!pay?.ok) return { ...this.failForGood(it, o.itemId, BALANCE_EXHAUSTED, o.now), balanceExhausted: true };
      o = capToTotal(o, o.totalLimit === undefined ? 0 : (this.s('SELECT records FROM requests WHERE id = ?').get(it.request_id) as Row).records);
      const chunks = o.streamed ? ((this.s('SELECT chunks FROM item_progress WHERE request_id = ? AND query_index = ?').get(it.request_id, it.query_index) as Row | undefined)?.chunks ?? 0) : 0;
      this.s('INSERT OR IGNORE INTO results (request_id, query_index, records, count, error, chunks) VALUES (?, ?, ?, ?, ?, ?)')
        .run(it.request_id, it.query_index, this.codec.pack(o.recordsJson), o.count, o.note ?? null, chunks);
      this.dropProgress(it.request_id, it.query_index, !!o.streamed);
      this.s(`UPDATE work_items SET state = 'done', lease_owner = NULL, lease_until = NULL, error = NULL WHERE id = ?`).run(o.itemId);
      const deduped = !!it.drop_duplicates && !!o.dedupeKeys;
      let newKeys = 0;
      if (deduped) {
        const ins = this.s('INSERT OR IGNORE INTO request_keys (request_id, key) VALUES (?, ?)');
        for (const k of o.dedupeKeys!) newKeys += ins.run(it.request_id, k).changes;
      }
      const billing = itemBilling({ count: o.count, units: o.units, cutByTotal: o.cutByTotal, deduped });
      this.bill(it.account_id, it.request_id, o.itemId, it, itemQuantity(billing, !!it.empty_costs_one, newKeys), o.now);
      // Per-place products (enrichments): what was found, never the unit an empty search costs.
      const places = itemQuantity(billing, false, newKeys);
      for (const e of o.extraProducts ?? []) this.bill(it.account_id, it.request_id, `${o.itemId}|${e.product}`, it, places, o.now, e);
      this.s('UPDATE requests SET queries_done = queries_done + 1, queries_ok = queries_ok + 1, records = records + ? WHERE id = ?').run(o.count, it.request_id);
      return { applied: true, finished: this.maybeFinish(it.request_id, o.now) };
    });
  }

  async failItem(itemId: string, owner: string, error: string, retryAt: number | null, now: number): Promise<FanIn> {
    return this.grouped((): FanIn => {
      const it = this.ownedItem(itemId, owner);
      if (!it || it.status !== 'Pending') return { applied: false, finished: null };
      if (retryAt !== null) {
        this.s(`UPDATE work_items SET state = 'queued', lease_owner = NULL, lease_until = NULL, run_after = ?, error = ? WHERE id = ?`).run(retryAt, error, itemId);
        return { applied: true, finished: null };
      }
      return this.failForGood(it, itemId, error, now);
    });
  }

  /** Ends a leased item's query with no records and the error; inside the caller's transaction. */
  private failForGood(it: Row, itemId: string, error: string, now: number): FanIn {
    this.s(`INSERT OR IGNORE INTO results (request_id, query_index, records, count, error) VALUES (?, ?, '[]', 0, ?)`).run(it.request_id, it.query_index, error);
    this.dropProgress(it.request_id, it.query_index, false);
    this.s(`UPDATE work_items SET state = 'failed', lease_owner = NULL, lease_until = NULL, error = ? WHERE id = ?`).run(error, itemId);
    this.s('UPDATE requests SET queries_done = queries_done + 1 WHERE id = ?').run(it.request_id);
    return { applied: true, finished: this.maybeFinish(it.request_id, now) };
  }

  async releaseItems(owner: string, now: number): Promise<number> {
    // attempts is decremented: a hand-back on shutdown is not a failed attempt.
    return this.s(`UPDATE work_items SET state = 'queued', lease_owner = NULL, lease_until = NULL, run_after = ?, attempts = MAX(attempts - 1, 0)
                   WHERE state = 'leased' AND lease_owner = ?`).run(now, owner).changes;
  }

  async cancelRequest(requestId: string, now: number): Promise<FanIn> {
    return this.db.transaction((): FanIn => {
      const r = this.s(`SELECT status FROM requests WHERE id = ?`).get(requestId) as Row | undefined;
      if (!r || r.status !== 'Pending') return { applied: false, finished: null };
      // `+state`: without statistics the planner would pick the state index and walk the whole queue.
      const open = this.s(`UPDATE work_items SET state = 'cancelled', lease_owner = NULL, lease_until = NULL
                           WHERE id >= ? AND id < ? AND request_id = ? AND +state IN ('queued', 'leased')`).run(...itemRange(requestId), requestId).changes;
      const row = this.s(`UPDATE requests SET cancelled = 1, status = 'Failure', finished_at = ?, queries_done = queries_done + ?
                          WHERE id = ? RETURNING *`).get(now, open, requestId) as Row;
      this.onFinished(row, now);
      return { applied: true, finished: toRequest(row) };
    })();
  }

  async itemCounts(): Promise<Record<ItemState, number>> {
    const out: Record<ItemState, number> = { queued: 0, leased: 0, done: 0, failed: 0, cancelled: 0 };
    for (const r of this.s('SELECT state, COUNT(*) AS n FROM work_items GROUP BY state').all() as Row[]) out[r.state as ItemState] = r.n;
    return out;
  }

  async queuedItemIds(limit: number): Promise<string[]> {
    return (this.s(`SELECT id FROM work_items WHERE state IN ('queued', 'leased') ORDER BY run_after LIMIT ?`).all(limit) as Row[]).map((r) => r.id);
  }

  /** Items a worker could claim right now, with their attempt count (see Store.runnableItems). */
  async runnableItems(now: number, limit: number): Promise<{ id: string; attempts: number }[]> {
    return this.s(`SELECT id, attempts FROM (SELECT id, attempts FROM work_items WHERE state = 'queued' AND run_after <= @now ORDER BY run_after LIMIT @limit)
                   UNION ALL
                   SELECT id, attempts FROM (SELECT id, attempts FROM work_items WHERE state = 'leased' AND lease_until < @now LIMIT @limit)
                   LIMIT @limit`).all({ now, limit }) as { id: string; attempts: number }[];
  }

  // ---------------------------------------------------------------- billing
  async rollupUsage(before: number, limit = -1): Promise<number> {
    return this.db.transaction(() => {
      const ids = JSON.stringify((this.s("SELECT id FROM usage WHERE item_key NOT LIKE 'day:%' AND created_at < ? LIMIT ?").all(before, limit) as Row[]).map((r) => r.id));
      // Adds to the day's line when an earlier batch made it already (a day can span batches).
      this.s(`INSERT INTO usage (account_id, request_id, item_key, product, unit, quantity, unit_price_micros, amount_micros, created_at)
              SELECT account_id, k, k, product, unit, quantity, unit_price_micros, amount_micros, day FROM (
                SELECT account_id, product, unit, unit_price_micros, SUM(quantity) AS quantity, SUM(amount_micros) AS amount_micros,
                       (created_at / 86400000) * 86400000 AS day,
                       'day:' || strftime('%Y-%m-%d', (created_at / 86400000) * 86400, 'unixepoch') || '|' || account_id || '|' || product || '|' || unit || '|' || unit_price_micros AS k
                FROM usage WHERE id IN (SELECT value FROM json_each(?)) GROUP BY k)
              WHERE true
              ON CONFLICT (item_key) DO UPDATE SET quantity = quantity + excluded.quantity, amount_micros = amount_micros + excluded.amount_micros`).run(ids);
      return this.s('DELETE FROM usage WHERE id IN (SELECT value FROM json_each(?))').run(ids).changes;
    })();
  }

  async usageForPeriod(accountId: string, start: number, end: number): Promise<UsageLine[]> {
    return (this.s(`SELECT product, unit, unit_price_micros, SUM(quantity) AS quantity, SUM(amount_micros) AS amount_micros FROM usage
                    WHERE account_id = ? AND created_at >= ? AND created_at < ? GROUP BY product, unit, unit_price_micros ORDER BY product`)
      .all(accountId, start, end) as Row[]).map(toUsageLine);
  }

  async chargeUsage(c: DirectCharge): Promise<boolean> {
    if (c.quantity <= 0) return true;
    return this.grouped(() => {
      const ok = this.s('SELECT 1 FROM accounts WHERE id = ? AND past_due = 0 AND balance_micros + credit_limit_micros > 0').get(c.accountId);
      if (!ok) return false;
      const amount = c.quantity * c.unitPriceMicros;
      const line = this.s(`INSERT INTO usage (account_id, request_id, item_key, product, unit, quantity, unit_price_micros, amount_micros, created_at)
                           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (item_key) DO NOTHING`)
        .run(c.accountId, c.key, c.key, c.product, c.unit, c.quantity, c.unitPriceMicros, amount, c.now);
      if (line.changes) this.s('UPDATE accounts SET balance_micros = balance_micros - ? WHERE id = ?').run(amount, c.accountId);
      return true;
    });
  }

  // ---------------------------------------------------------------- webhooks
  async claimDueWebhooks(now: number, max: number, leaseMs: number): Promise<WebhookDelivery[]> {
    return this.db.transaction(() => {
      const rows = this.s(`SELECT * FROM webhook_deliveries WHERE state = 'pending' AND next_at <= ? AND (lease_until IS NULL OR lease_until < ?)
                           ORDER BY next_at LIMIT ?`).all(now, now, max) as Row[];
      const lease = this.s('UPDATE webhook_deliveries SET lease_until = ? WHERE id = ?');
      return rows.map((r) => {
        lease.run(now + leaseMs, r.id);
        return { id: r.id, accountId: r.account_id, requestId: r.request_id, url: r.url, attempts: r.attempts };
      });
    })();
  }

  async recordWebhookAttempt(id: string, statusCode: number, ok: boolean, nextAt: number | null, now: number): Promise<void> {
    this.db.transaction(() => {
      const d = this.s('SELECT account_id FROM webhook_deliveries WHERE id = ?').get(id) as Row | undefined;
      if (!d) return;
      const state = ok ? 'delivered' : nextAt === null ? 'failed' : 'pending';
      this.s('UPDATE webhook_deliveries SET attempts = attempts + 1, state = ?, next_at = ?, lease_until = NULL WHERE id = ?').run(state, nextAt, id);
      if (!ok) this.s('INSERT INTO webhook_calls (account_id, delivery_id, status_code, created_at) VALUES (?, ?, ?, ?)').run(d.account_id, id, statusCode, now);
    })();
  }

  async listWebhookCalls(accountId: string, since: number, limit: number): Promise<WebhookCall[]> {
    return (this.s('SELECT status_code, created_at FROM webhook_calls WHERE account_id = ? AND created_at >= ? ORDER BY created_at DESC, id DESC LIMIT ?')
      .all(accountId, since, limit) as Row[]).map((r) => ({ status: `Status code: ${r.status_code}`, date: Math.floor(r.created_at / 1000) }));
  }

  // ---------------------------------------------------------------- tasks
  async createTask(t: TaskRow): Promise<void> {
    this.s(`INSERT INTO tasks (id, account_id, request_id, service_name, queries, tags, spec, status, format, file_token, file_path, results, created, updated, queue_task_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(t.id, t.accountId, t.requestId, t.serviceName, JSON.stringify(t.queries), JSON.stringify(t.tags), JSON.stringify(t.spec), t.status,
        t.format, t.fileToken, t.filePath, JSON.stringify(t.results), t.created, t.updated, t.queueTaskId);
  }

  async getTask(id: string): Promise<TaskRow | null> {
    const r = this.s('SELECT * FROM tasks WHERE id = ?').get(id) as Row | undefined;
    return r ? toTask(r) : null;
  }

  async getTaskByRequest(requestId: string): Promise<TaskRow | null> {
    const r = this.s('SELECT * FROM tasks WHERE request_id = ?').get(requestId) as Row | undefined;
    return r ? toTask(r) : null;
  }

  async strandedTasks(limit: number): Promise<TaskRow[]> {
    return (this.s(`SELECT t.* FROM tasks t JOIN requests r ON r.id = t.request_id
                    WHERE t.status IN ('PENDING', 'RUNNING') AND r.finished_at IS NOT NULL ORDER BY t.id LIMIT ?`).all(limit) as Row[]).map(toTask);
  }

  async getTaskByFileToken(token: string): Promise<TaskRow | null> {
    const r = this.s('SELECT * FROM tasks WHERE file_token = ?').get(token) as Row | undefined;
    return r ? toTask(r) : null;
  }

  async updateTask(id: string, patch: Partial<Pick<TaskRow, 'status' | 'fileToken' | 'filePath' | 'results' | 'updated' | 'requestId'>>): Promise<void> {
    for (const [k, v] of Object.entries(patch)) {
      if (v === undefined) continue;
      this.db.prepare(`UPDATE tasks SET ${TASK_COLUMNS[k]} = ? WHERE id = ?`).run(k === 'results' ? JSON.stringify(v) : v, id);
    }
  }

  async listTasks(accountId: string, o: { tag?: string; lastId?: string; limit: number }): Promise<TaskRow[]> {
    const where = ['account_id = ?'];
    const args: unknown[] = [accountId];
    if (o.lastId) { where.push('id < ?'); args.push(o.lastId); }
    if (o.tag) {
      where.push(`(EXISTS (SELECT 1 FROM json_each(tasks.tags) WHERE value = ?) OR instr(lower(service_name), lower(?)) > 0 OR instr(lower(queries), lower(?)) > 0)`);
      args.push(o.tag, o.tag, o.tag);
    }
    args.push(o.limit);
    return (this.db.prepare(`SELECT * FROM tasks WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ?`).all(...args) as Row[]).map(toTask);
  }
}

export async function openSqliteStore(file: string, opts: { compression?: number | null } = {}): Promise<SqliteStore> {
  const s = new SqliteStore(file, opts);
  await s.migrate();
  return s;
}
