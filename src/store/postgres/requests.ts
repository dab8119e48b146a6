/**
 * Requests on PostgreSQL (../requests/contract.ts): creation with their work items (grouped into one
 * statement per event-loop turn), reads, cancellation, the janitor's purge, and `endRequest`, what
 * ending a request entails beyond its status (./items.ts).
 *
 * @example await new PostgresRequests(h).cancelRequest('r1', Date.now())
 */
import { duplicateSurcharge } from '../../billing/rule.ts';
import { ITEMS_AT_ONCE, type FanIn, type InsertLease, type NewRequest, type RequestRow, type RequestStore, type WorkItem, type WrittenItems } from '../requests/contract.ts';
import { storedItems, waitingChunks } from '../requests/waiting.ts';
import { affordableUnits, canChargeSql } from '../../billing/credit.ts';
import { rowMappers, toAccount, type Row } from '../rows.ts';
import { isStoreUnavailable } from '../unavailable.ts';
import { billUsage } from './billing.ts';
import { CheckpointFree } from './checkpoint-free.ts';
import type { Client, PgDb } from './handle.ts';
import { dropResults } from './results.ts';
import { enqueueDelivery, purgeWebhooks } from './webhooks.ts';

export const { toRequest } = rowMappers((v) => v);

/** The ended ones of the requests `$1` (distinct ids), each found by its key: `id = ANY($1)`,
 *  planned once on tables never analyzed, scanned every request (as COMPLETE_ITEM's join did,
 *  ./complete-item.ts); `OFFSET 0` keeps the planner from folding the per-id lookup into a join. */
export const ENDED_REQUESTS = `SELECT r.* FROM unnest($1::text[]) AS x(id)
  CROSS JOIN LATERAL (SELECT * FROM requests r WHERE r.id = x.id AND r.finished_at IS NOT NULL OFFSET 0) r`;

/** What ending a request entails beyond its status, on the ending transaction `c`: the
 *  dropDuplicates surcharge (decision 20) and the webhook row. `r` is the ended requests row. */
export async function endRequest(h: PgDb, c: Client, r: Row, now: number): Promise<RequestRow> {
  if (r.drop_duplicates) {
    const kept = (await h.q('SELECT COUNT(*) AS n FROM request_keys WHERE request_id = $1', [r.id], c))[0].n as number;
    const owed = duplicateSurcharge(r.records, Number(kept));
    if (owed > 0) {
      // Cut to what the account can still take, read under its row lock: a surcharge is not one
      // item's worth (src/billing/credit.ts). No other item of this request runs any more, so this
      // lock (request, then account) cannot meet a completion's (account, then request) on one request.
      const [a] = await h.q('SELECT * FROM accounts WHERE id = $1 FOR UPDATE', [r.account_id], c);
      const billed = await billUsage(h, c, r, r.id, `dup:${r.id}`, affordableUnits(toAccount(a), owed, r.unit_price_micros), now);
      if (billed) [r] = await h.q('UPDATE requests SET usage = usage + $2 WHERE id = $1 RETURNING *', [r.id, billed], c);
    }
  }
  await enqueueDelivery(h, c, r, now);
  return toRequest(r);
}

/** A request to insert, and whether only while its account may be charged. */
interface Insert { r: NewRequest; whilePayable: boolean }

/** The batch insert (insertRequests): a batch's columns as arrays. A request inserted only while its
 *  account may be charged reads that account by key, a look-up a row: as EXISTS, the plan made once
 *  hashed the whole accounts table at every insert (issue 37, session 18).
 *  With an owner (`$23`), the items are leased to it at once (until `$24`) when no item is queued and
 *  due at `$25` (`lease`): a claim with a slot for each would take them all whatever the fair order,
 *  and the claim's statement is spared (RequestStore.leaseAtInsert). Each leased request's row says
 *  what its account can pay, as a claim's does (WorkItem.payable). */
export const INSERT_REQUESTS = `WITH x AS (
               SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::json[], $5::int[], $6::text[], $7::text[], $8::text[],
                                    $9::bigint[], $10::boolean[], $11::boolean[], $12::text[], $13::bigint[], $22::boolean[])
                 AS x(id, account_id, endpoint, params, queries_total, webhook, product, unit, unit_price_micros, empty_costs_one, drop_duplicates,
                      task_id, created_at, while_payable)),
             req AS (
               INSERT INTO requests (id, account_id, endpoint, params, queries_total, webhook, product, unit, unit_price_micros,
                                     empty_costs_one, drop_duplicates, task_id, created_at)
               SELECT id, account_id, endpoint, params, queries_total, webhook, product, unit, unit_price_micros, empty_costs_one, drop_duplicates,
                      task_id, created_at FROM x
               WHERE NOT x.while_payable OR (SELECT ${canChargeSql('a')} FROM accounts a WHERE a.id = x.account_id)
               RETURNING id, account_id),
             waiting AS (
               INSERT INTO waiting_items (request_id, from_index, n, queries, max_attempts, run_after, created_at)
               SELECT w.id, w.from_index, w.n, w.qs, w.max, w.at, w.at
               FROM unnest($16::text[], $17::int[], $18::int[], $19::text[], $20::int[], $21::bigint[]) AS w(id, from_index, n, qs, max, at)
               JOIN req ON req.id = w.id),
             lease AS (
               SELECT $23::text IS NOT NULL AND NOT EXISTS (SELECT 1 FROM work_items d WHERE d.state = 'queued' AND d.run_after <= $25::bigint) AS ok),
             items AS (
               INSERT INTO work_items (id, request_id, query_index, query, max_attempts, run_after, state, lease_owner, lease_until, attempts)
               SELECT r.id || ':' || (q.n - 1), r.id, q.n - 1, q.query, r.max, r.at,
                      CASE WHEN lease.ok THEN 'leased' ELSE 'queued' END, CASE WHEN lease.ok THEN $23::text END,
                      CASE WHEN lease.ok THEN $24::bigint END, lease.ok::int
               FROM unnest($1::text[], $14::text[], $15::int[], $13::bigint[]) AS r(id, qs, max, at)
               CROSS JOIN LATERAL json_array_elements_text(r.qs::json) WITH ORDINALITY AS q(query, n)
               JOIN req ON req.id = r.id CROSS JOIN lease)
             SELECT req.id, lease.ok AS leased,
                    CASE WHEN lease.ok THEN (SELECT CASE WHEN ${canChargeSql('a')} THEN a.balance_micros + a.credit_limit_micros ELSE 0 END
                                             FROM accounts a WHERE a.id = req.account_id) END AS payable_micros
             FROM req CROSS JOIN lease`;

/**
 * One statement, so one round trip and atomic without an explicit transaction. Each request's queries
 * travel as one JSON array that the server expands (with their order): as 10,000-element text arrays
 * the driver escaped every element on the API thread (issue 39: a 10,000-query task). A request of
 * more than ITEMS_AT_ONCE goes in as waiting chunks (../requests/waiting.ts), a row each, and no
 * item: the insert of 10,000 items (a foreign key and four indexes each) was the whole of that
 * task's answer past its 100 ms target, and 1,000 took 50-90 ms of it on a box at load 13.
 * A request inserted only while its account may be charged is checked in the same statement (no read
 * of the account before it). Returns the ids inserted.
 */
async function insertRequests(h: PgDb, xs: Insert[], lease?: { owner: string; until: number; now: number }): Promise<Row[]> {
  const rs = xs.map((x) => x.r);
  const waiting = rs.flatMap((r) => waitingChunks(r.queries).map((c) => ({ r, c })));
  // Planned once (PgDb.qPlannedOnce): its values are a batch's columns as arrays.
  return h.qPlannedOnce(INSERT_REQUESTS,
  [rs.map((r) => r.id), rs.map((r) => r.accountId), rs.map((r) => r.endpoint), rs.map((r) => JSON.stringify(r.params)),
    rs.map((r) => r.queries.length), rs.map((r) => r.webhook), rs.map((r) => r.product), rs.map((r) => r.unit),
    rs.map((r) => r.unitPriceMicros), rs.map((r) => r.emptyCostsOne), rs.map((r) => r.dropDuplicates), rs.map((r) => r.taskId),
    rs.map((r) => r.createdAt), rs.map((r) => storedItems(r.queries)), rs.map((r) => r.maxAttempts),
    waiting.map((w) => w.r.id), waiting.map((w) => w.c.from), waiting.map((w) => w.c.n), waiting.map((w) => w.c.queries),
    waiting.map((w) => w.r.maxAttempts), waiting.map((w) => w.r.createdAt), xs.map((x) => x.whilePayable),
    lease?.owner ?? null, lease?.until ?? null, lease?.now ?? null]);
}

/** The items of the requests an insert leased (its rows with `leased`), as a claim returns them. */
function leasedItems(xs: Insert[], rows: Row[], owner: string, readFrom: number, free: CheckpointFree): WorkItem[] {
  const byId = new Map(xs.map((x) => [x.r.id, x.r]));
  const out: WorkItem[] = [];
  for (const row of rows) {
    const r = byId.get(row.id);
    if (!row.leased || !r) continue;
    // A copy, as a claim reads it: the runner's item does not share the submitter's object.
    const params = JSON.parse(JSON.stringify(r.params)) as Record<string, unknown>;
    const payable = { micros: Number(row.payable_micros), readFrom };
    r.queries.forEach((query, i) => {
      const id = `${r.id}:${i}`;
      // Inserted just now: no checkpoint can exist (./checkpoint-free.ts).
      free.leased(id, owner, false);
      out.push({ id, requestId: r.id, accountId: r.accountId, endpoint: r.endpoint, queryIndex: i, query, params, attempts: 1,
        maxAttempts: r.maxAttempts, unitPriceMicros: r.unitPriceMicros, checkpointed: false, payable });
    });
  }
  return out;
}

/**
 * The oldest waiting chunk, locked (a chunk another writer holds is skipped), deleted and written as
 * items in one statement: it is written once whoever calls, and a crash before the commit leaves it
 * waiting. A chunk of an ended request (cancelled: ../requests/contract.ts) is deleted unwritten.
 */
const WRITE_WAITING = `WITH w AS (
    DELETE FROM waiting_items WHERE (request_id, from_index) = (
      SELECT request_id, from_index FROM waiting_items ORDER BY created_at, request_id, from_index LIMIT 1 FOR UPDATE SKIP LOCKED)
    RETURNING request_id, from_index, n, queries, max_attempts, run_after),
  ins AS (
    INSERT INTO work_items (id, request_id, query_index, query, max_attempts, run_after)
    SELECT w.request_id || ':' || (w.from_index + q.n - 1), w.request_id, w.from_index + q.n - 1, q.query, w.max_attempts, w.run_after
    FROM w JOIN requests r ON r.id = w.request_id AND r.finished_at IS NULL
    CROSS JOIN LATERAL json_array_elements_text(w.queries::json) WITH ORDINALITY AS q(query, n)
    RETURNING 1)
  SELECT w.request_id, w.from_index, w.n, (SELECT count(*) FROM ins)::int AS written FROM w`;

/** Writes the oldest waiting chunk (../requests/contract.ts `writeWaitingItems`). */
export async function writeWaitingItems(h: PgDb): Promise<WrittenItems | null> {
  for (;;) {
    const [w] = await h.q(WRITE_WAITING);
    if (!w) return null;
    // A chunk of an ended request was dropped: look for the next.
    if (w.written > 0) return { requestId: w.request_id, from: w.from_index, to: w.from_index + w.written };
  }
}

/**
 * Group insert: the requests submitted in one event-loop turn go to the server as one statement
 * (columns as arrays), so a burst of submits costs one round trip and one protocol exchange instead
 * of one each. A failing batch (a duplicate id, say) is replayed one request at a time, so only the
 * failing one fails. With a consumer in this process (`to`, RequestStore.leaseAtInsert) that holds a
 * free slot for each of the batch's items, the insert leases them to it (INSERT_REQUESTS `lease`).
 */
export class RequestBatch {
  private pending: (Insert & { resolve: (created: boolean) => void; reject: (e: unknown) => void })[] = [];
  to: InsertLease | null = null;

  constructor(private readonly h: PgDb, private readonly free: CheckpointFree) {}

  add(r: NewRequest, whilePayable = false): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.pending.push({ r, whilePayable, resolve, reject });
      if (this.pending.length === 1) setImmediate(() => void this.flush());
    });
  }

  async flush(): Promise<void> {
    const batch = this.pending.splice(0);
    if (!batch.length) return;
    // Requests past ITEMS_AT_ONCE wait in chunks and have no item to lease: such a batch is not leased.
    const to = this.to;
    const n = to && batch.every((p) => p.r.queries.length <= ITEMS_AT_ONCE) ? batch.reduce((s, p) => s + p.r.queries.length, 0) : 0;
    const held = n > 0 && to!.reserve(n);
    let handed = !held;
    try {
      const readFrom = performance.now();
      const now = held ? to!.now() : 0;
      const rows = await insertRequests(this.h, batch, held ? { owner: to!.owner, until: now + to!.leaseMs, now } : undefined);
      // Handed over before the submitters hear: their announcements then find the items running.
      if (held) {
        handed = true;
        to!.take(leasedItems(batch, rows, to!.owner, readFrom, this.free), n);
      }
      const made = new Set(rows.map((r) => r.id as string));
      for (const p of batch) p.resolve(made.has(p.r.id));
      return;
    } catch (e) {
      if (!handed) to!.take([], n);
      // An outage fails every request alike: replaying them one by one would only wait longer.
      if (batch.length === 1 || isStoreUnavailable(e)) return void batch.forEach((p) => p.reject(e));
    }
    await Promise.all(batch.map((p) => insertRequests(this.h, [p]).then((rows) => p.resolve(rows.length > 0), p.reject)));
  }
}

export class PostgresRequests implements Pick<RequestStore, 'createRequest' | 'leaseAtInsert' | 'writeWaitingItems' | 'getRequest' | 'requestEnd' | 'endedRequests' | 'listRequests' | 'cancelRequest' | 'purge'> {
  /** Requests waiting for this turn's insert; the store flushes it on close. */
  readonly batch: RequestBatch;

  constructor(private readonly h: PgDb, free = new CheckpointFree()) {
    this.batch = new RequestBatch(h, free);
  }

  leaseAtInsert(to: InsertLease): () => void {
    this.batch.to = to;
    return () => { if (this.batch.to === to) this.batch.to = null; };
  }

  async createRequest(r: NewRequest, o: { whilePayable?: boolean } = {}): Promise<boolean> {
    return this.batch.add(r, !!o.whilePayable);
  }

  async writeWaitingItems(): Promise<WrittenItems | null> {
    return writeWaitingItems(this.h);
  }

  async getRequest(id: string): Promise<RequestRow | null> {
    const [r] = await this.h.q('SELECT * FROM requests WHERE id = $1', [id]);
    return r ? toRequest(r) : null;
  }

  async requestEnd(id: string): Promise<{ finishedAt: number | null } | null> {
    const [r] = await this.h.q('SELECT finished_at FROM requests WHERE id = $1', [id]);
    return r ? { finishedAt: r.finished_at == null ? null : Number(r.finished_at) } : null;
  }

  async endedRequests(ids: string[]): Promise<RequestRow[]> {
    if (!ids.length) return [];
    return (await this.h.qPlannedOnce(ENDED_REQUESTS, [ids])).map(toRequest);
  }

  async listRequests(accountId: string, o: { finished: boolean; since: number; skip: number; limit: number }): Promise<RequestRow[]> {
    const cond = o.finished ? 'finished_at IS NOT NULL' : 'finished_at IS NULL';
    return (await this.h.q(`SELECT * FROM requests WHERE account_id = $1 AND created_at >= $2 AND ${cond}
                            ORDER BY created_at DESC, id LIMIT $3 OFFSET $4`, [accountId, o.since, o.limit, o.skip])).map(toRequest);
  }

  async cancelRequest(requestId: string, now: number): Promise<FanIn> {
    const h = this.h;
    return h.tx(async (c): Promise<FanIn> => {
      const [cur] = await h.q('SELECT status FROM requests WHERE id = $1', [requestId], c);
      if (!cur || cur.status !== 'Pending') return { applied: false, finished: null };
      // Waiting chunks first: one being written is waited for, so its items are committed and
      // cancelled below with the others; the rest are dropped and counted as done, like a cancelled item.
      const [w] = await h.q('WITH d AS (DELETE FROM waiting_items WHERE request_id = $1 RETURNING n) SELECT COALESCE(SUM(n), 0)::int AS n FROM d', [requestId], c);
      // Items next, request last: the same lock order as completeItem, so the two never deadlock, and a
      // completion that holds an item commits before the cancel counts what is still open.
      const open = w.n + await h.n(`UPDATE work_items SET state = 'cancelled', lease_owner = NULL, lease_until = NULL
                                    WHERE request_id = $1 AND state IN ('queued', 'leased')`, [requestId], c);
      // Conditional: a completion that ended the request meanwhile wins (its items were all ended, so
      // the update above changed nothing).
      const [row] = await h.q(`UPDATE requests SET cancelled = true, status = 'Failure', finished_at = $2, queries_done = queries_done + $3
                               WHERE id = $1 AND status = 'Pending' RETURNING *`, [requestId, now, open], c);
      if (!row) return { applied: false, finished: null };
      await enqueueDelivery(h, c, row, now);
      return { applied: true, finished: toRequest(row) };
    });
  }

  async purge(resultsBefore: number, requestsBefore: number, limit?: number): Promise<number> {
    const h = this.h;
    const max = limit ?? null; // LIMIT NULL = no limit
    return h.tx(async (c) => {
      const ids = (await h.q(`SELECT id FROM requests q WHERE finished_at IS NOT NULL AND finished_at < $1
                              AND EXISTS (SELECT 1 FROM results WHERE request_id = q.id) LIMIT $2`, [resultsBefore, max], c)).map((r) => r.id as string);
      if (ids.length) await dropResults(h, c, ids);
      const old = (await h.q('SELECT id FROM requests WHERE created_at < $1 AND finished_at IS NOT NULL LIMIT $2', [requestsBefore, max], c)).map((r) => r.id as string);
      if (old.length) {
        await dropResults(h, c, old);
        await h.q('DELETE FROM work_items WHERE request_id = ANY($1::text[])', [old], c);
        await h.q('DELETE FROM requests WHERE id = ANY($1::text[])', [old], c);
      }
      const calls = await purgeWebhooks(h, c, old, requestsBefore, max);
      return Math.max(ids.length, old.length, calls);
    });
  }
}
