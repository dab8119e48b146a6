/**
 * Requests on SQLite (../requests/contract.ts): creation with their work items, reads, cancellation,
 * the janitor's purge, and `finishIfDone`, the fan-in every item's ending transaction runs
 * (./items.ts).
 *
 * @example await new SqliteRequests(h).cancelRequest('r1', Date.now())
 */
import { duplicateSurcharge } from '../../billing/rule.ts';
import type { FanIn, NewRequest, RequestRow, RequestStore, WrittenItems } from '../requests/contract.ts';
import { storedItems, waitingChunks } from '../requests/waiting.ts';
import { rowMappers, type Row } from '../rows.ts';
import { affordableUnits, canChargeSql } from '../../billing/credit.ts';
import { billUsage, chargeable } from './billing.ts';
import { itemRange, type SqliteDb } from './handle.ts';
import { dropResults } from './results.ts';
import { dropDelivery, enqueueDelivery, purgeCalls } from './webhooks.ts';

export const { toRequest } = rowMappers(JSON.parse);

/** What an item's ending change tells of its request (FanIn): the request as ended, else null, and
 *  when it ended whether that made a webhook delivery (none: no delivery round follows, issue 37). */
export type RequestEnd = Pick<FanIn, 'finished' | 'deliveries'>;

/**
 * Ends the request when its last item ended, inside that item's transaction: its status, the
 * dropDuplicates surcharge (decision 20) and its webhook delivery. `finished` null while it still runs.
 */
export function finishIfDone(h: SqliteDb, requestId: string, now: number): RequestEnd {
  const r = h.s(`UPDATE requests SET status = CASE WHEN queries_ok > 0 THEN 'Success' ELSE 'Failure' END, finished_at = ?
                 WHERE id = ? AND status = 'Pending' AND finished_at IS NULL AND queries_done >= queries_total RETURNING *`).get(now, requestId) as Row | undefined;
  return r ? ended(h, r, now) : { finished: null };
}

/** Whether an update of the request row ends it: its last item counted, and it was still running. */
const ENDS = 'queries_done + 1 >= queries_total AND status = \'Pending\' AND finished_at IS NULL';
/** A completion's count on its request, and the request's end when it was the last item, in one
 *  update of the row (two were the row written twice a completion, issue 37). The item just passed
 *  the lease check, which reads the request still Pending in this transaction: an ended row here is
 *  one this update ended. */
const COUNT_AND_END = `UPDATE requests SET usage = usage + ?, queries_done = queries_done + 1, queries_ok = queries_ok + 1, records = records + ?,
                         status = CASE WHEN ${ENDS} THEN 'Success' ELSE status END, finished_at = CASE WHEN ${ENDS} THEN ? ELSE finished_at END
                       WHERE id = ? RETURNING *`;

/** Counts a completed item (`units` billed, `records` stored) on its request and ends the request when
 *  it was the last; inside the completion's transaction. `finished`: the ended request, else null. */
export function countCompletion(h: SqliteDb, requestId: string, units: number, records: number, now: number): RequestEnd {
  const r = h.s(COUNT_AND_END).get(units, records, now, requestId) as Row;
  return r.finished_at === now && r.status === 'Success' && r.queries_done >= r.queries_total ? ended(h, r, now) : { finished: null };
}

/** What follows a request's end, inside the transaction that ended it (`r`: its row as ended). */
function ended(h: SqliteDb, r: Row, now: number): Required<RequestEnd> {
  const requestId = r.id as string;
  const deliveries = enqueueDelivery(h, r, now);
  if (!r.drop_duplicates) return { finished: toRequest(r), deliveries };
  const kept = (h.s('SELECT COUNT(*) AS n FROM request_keys WHERE request_id = ?').get(requestId) as Row).n as number;
  // Cut to what the account can still take: a surcharge is not one item's worth (src/billing/credit.ts).
  const owed = duplicateSurcharge(r.records, kept);
  const billed = billUsage(h, r, requestId, `dup:${requestId}`, owed && affordableUnits(chargeable(h, r.account_id), owed, r.unit_price_micros), now);
  // billUsage added the surcharge to the row's usage; nothing else changed it since RETURNING.
  return { finished: toRequest({ ...r, usage: (r.usage as number) + billed }), deliveries };
}

/** Deletes up to `limit` expired requests' results, then up to `limit` requests past the history period. */
function purgeRows(h: SqliteDb, resultsBefore: number, requestsBefore: number, limit: number): number {
  return h.tx(() => {
    // Walks expired requests by the finished_at index and checks each for results by key, so the
    // cost follows what expired, not how many result rows are stored (LIMIT -1 = no limit).
    const ids = (h.s('SELECT id FROM requests q WHERE finished_at IS NOT NULL AND finished_at < ? AND EXISTS (SELECT 1 FROM results WHERE request_id = q.id) LIMIT ?')
      .all(resultsBefore, limit) as Row[]).map((r) => r.id as string);
    for (const id of ids) dropResults(h, id);
    const old = (h.s('SELECT id FROM requests WHERE created_at < ? AND finished_at IS NOT NULL LIMIT ?').all(requestsBefore, limit) as Row[]).map((r) => r.id as string);
    for (const id of old) {
      dropResults(h, id);
      h.s('DELETE FROM work_items WHERE id >= ? AND id < ? AND request_id = ?').run(...itemRange(id), id);
      h.s('DELETE FROM requests WHERE id = ?').run(id);
      dropDelivery(h, id);
    }
    return Math.max(ids.length, old.length, purgeCalls(h, requestsBefore, limit));
  });
}

const INSERT_REQUEST = `INSERT INTO requests (id, account_id, endpoint, params, queries_total, webhook, product, unit, unit_price_micros,
                        empty_costs_one, drop_duplicates, task_id, created_at) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?`;
/** While payable: the credit rule in the insert itself (a read of its own was one more statement a submit). */
const INSERT_REQUEST_WHILE_PAYABLE = `${INSERT_REQUEST} WHERE EXISTS (SELECT 1 FROM accounts a WHERE a.id = ? AND ${canChargeSql('a')})`;

export class SqliteRequests implements Pick<RequestStore, 'createRequest' | 'writeWaitingItems' | 'getRequest' | 'requestEnd' | 'endedRequests' | 'listRequests' | 'cancelRequest' | 'purge'> {
  constructor(private readonly h: SqliteDb) {}

  async createRequest(r: NewRequest, o: { whilePayable?: boolean } = {}): Promise<boolean> {
    const ins = this.h.s(o.whilePayable ? INSERT_REQUEST_WHILE_PAYABLE : INSERT_REQUEST);
    // One statement for the items, expanded by SQLite from a JSON array: 10,000 single-row inserts
    // were some 10,000 calls into the driver on the API thread (issue 39: a 10,000-query task). Past
    // ITEMS_AT_ONCE queries they wait as chunks instead (writeWaitingItems), so the API thread
    // writes no item of them before the answer.
    const items = this.h.s(`INSERT INTO work_items (id, request_id, query_index, query, max_attempts, run_after)
                            SELECT ? || ':' || key, ?, key, value, ?, ? FROM json_each(?)`);
    const waiting = waitingChunks(r.queries);
    const wait = waiting.length ? this.h.s(`INSERT INTO waiting_items (request_id, from_index, n, queries, max_attempts, run_after, created_at)
                                            VALUES (?, ?, ?, ?, ?, ?, ?)`) : null;
    return this.h.grouped(() => {
      const made = ins.run(r.id, r.accountId, r.endpoint, JSON.stringify(r.params), r.queries.length, r.webhook, r.product, r.unit, r.unitPriceMicros,
        r.emptyCostsOne ? 1 : 0, r.dropDuplicates ? 1 : 0, r.taskId, r.createdAt, ...(o.whilePayable ? [r.accountId] : []));
      if (!made.changes) return false;
      items.run(r.id, r.id, r.maxAttempts, r.createdAt, storedItems(r.queries));
      for (const c of waiting) wait!.run(r.id, c.from, c.n, c.queries, r.maxAttempts, r.createdAt, r.createdAt);
      return true;
    });
  }

  async writeWaitingItems(): Promise<WrittenItems | null> {
    // One chunk per transaction: 1,000 items, a few ms of the API thread each, between other work.
    return this.h.grouped(() => {
      for (;;) {
        const w = this.h.s('SELECT request_id, from_index, n FROM waiting_items ORDER BY created_at, request_id, from_index LIMIT 1').get() as Row | undefined;
        if (!w) return null;
        // A chunk of a request that ended meanwhile (cancelled) is dropped, not written: look for the next.
        if (this.h.s('SELECT 1 FROM requests WHERE id = ? AND finished_at IS NULL').get(w.request_id)) {
          this.h.s(`INSERT INTO work_items (id, request_id, query_index, query, max_attempts, run_after)
                    SELECT w.request_id || ':' || (w.from_index + j.key), w.request_id, w.from_index + j.key, j.value, w.max_attempts, w.run_after
                    FROM waiting_items w, json_each(w.queries) j WHERE w.request_id = ? AND w.from_index = ?`).run(w.request_id, w.from_index);
        } else w.n = 0;
        this.h.s('DELETE FROM waiting_items WHERE request_id = ? AND from_index = ?').run(w.request_id, w.from_index);
        if (!w.n) continue;
        return { requestId: w.request_id as string, from: w.from_index as number, to: (w.from_index as number) + (w.n as number) };
      }
    });
  }

  async getRequest(id: string): Promise<RequestRow | null> {
    const r = this.h.s('SELECT * FROM requests WHERE id = ?').get(id) as Row | undefined;
    return r ? toRequest(r) : null;
  }

  async requestEnd(id: string): Promise<{ finishedAt: number | null } | null> {
    const r = this.h.s('SELECT finished_at FROM requests WHERE id = ?').get(id) as Row | undefined;
    return r ? { finishedAt: r.finished_at ?? null } : null;
  }

  async endedRequests(ids: string[]): Promise<RequestRow[]> {
    if (!ids.length) return [];
    return (this.h.s('SELECT r.* FROM json_each(?) j JOIN requests r ON r.id = j.value WHERE r.finished_at IS NOT NULL')
      .all(JSON.stringify(ids)) as Row[]).map(toRequest);
  }

  async listRequests(accountId: string, o: { finished: boolean; since: number; skip: number; limit: number }): Promise<RequestRow[]> {
    const cond = o.finished ? 'finished_at IS NOT NULL' : 'finished_at IS NULL';
    return (this.h.s(`SELECT * FROM requests WHERE account_id = ? AND created_at >= ? AND ${cond} ORDER BY created_at DESC, id LIMIT ? OFFSET ?`)
      .all(accountId, o.since, o.limit, o.skip) as Row[]).map(toRequest);
  }

  async cancelRequest(requestId: string, now: number): Promise<FanIn> {
    return this.h.tx((): FanIn => {
      const r = this.h.s(`SELECT status FROM requests WHERE id = ?`).get(requestId) as Row | undefined;
      if (!r || r.status !== 'Pending') return { applied: false, finished: null };
      // `+state`: without statistics the planner would pick the state index and walk the whole queue.
      // The queries still waiting to become items are dropped and counted as done, like a cancelled item.
      const waiting = (this.h.s('SELECT COALESCE(SUM(n), 0) AS n FROM waiting_items WHERE request_id = ?').get(requestId) as Row).n as number;
      if (waiting) this.h.s('DELETE FROM waiting_items WHERE request_id = ?').run(requestId);
      const open = waiting + this.h.s(`UPDATE work_items SET state = 'cancelled', lease_owner = NULL, lease_until = NULL
                                       WHERE id >= ? AND id < ? AND request_id = ? AND +state IN ('queued', 'leased')`).run(...itemRange(requestId), requestId).changes;
      const row = this.h.s(`UPDATE requests SET cancelled = 1, status = 'Failure', finished_at = ?, queries_done = queries_done + ?
                            WHERE id = ? RETURNING *`).get(now, open, requestId) as Row;
      return { applied: true, finished: toRequest(row), deliveries: enqueueDelivery(this.h, row, now) };
    });
  }

  async purge(resultsBefore: number, requestsBefore: number, limit = -1): Promise<number> {
    // Deleting a request makes SQLite look for work items still referencing it, and work_items has no
    // index on request_id (migration 002): with foreign keys on, that is a scan of every work item per
    // purged request. Their items are deleted just before, by key range, so the check is off here
    // (a pragma, so outside the transaction; nothing else runs on this connection meanwhile).
    this.h.db.pragma('foreign_keys = OFF');
    let n: number;
    try {
      n = purgeRows(this.h, resultsBefore, requestsBefore, limit);
    } finally {
      this.h.db.pragma('foreign_keys = ON');
    }
    // Returns the pages this batch freed (cost follows the batch; a no-op without auto_vacuum).
    if (n) this.h.db.pragma('incremental_vacuum');
    return n;
  }
}
