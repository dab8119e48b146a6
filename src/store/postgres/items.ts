/**
 * Work items on PostgreSQL (../requests/contract.ts): leases, and ending an item. What SQLite gets
 * from running one transaction at a time, this part gets from row locks, taken in an order that
 * never lets two transactions wait on each other in a circle: the work item first; then, for a
 * completion, the account (its charge is checked against the credit rule before anything else is
 * written) and the request, except in a totalLimit request, whose completions all lock the request
 * before the account. The two orders never meet on one request, and nothing else holds an account
 * while it waits for a request.
 *
 * - A claim picks rows with `FOR UPDATE SKIP LOCKED`, so any number of workers claim without blocking.
 * - Completing or failing an item is one statement (./complete-item.ts) that locks the item row and
 *   checks it is still leased by the caller; the result, the usage line (unique item_key) and the
 *   request's counters change in it, so a stale or repeated completion writes and bills nothing.
 * - The request's fan-in is one conditional UPDATE under the request's row lock: the statement that
 *   ends the last item ends the request and creates its webhook delivery row.
 *
 * @example const [it] = await new PostgresItems(h).claimItems('w1', 1, 60_000, Date.now());
 */
import { canChargeSql } from '../../billing/credit.ts';
import { capToTotal } from '../cap.ts';
import type { FanIn, ItemOutcome, ItemState, RequestRow, RequestStore, WorkItem } from '../requests/contract.ts';
import type { Row } from '../rows.ts';
import { storedOf } from '../requests/stored.ts';
import { utf8Of } from '../utf8.ts';
import { pickFair } from '../requests/fairness.ts';
import { ParamsCache } from '../requests/params-cache.ts';
import { CheckpointFree } from './checkpoint-free.ts';
import { FAIL_ITEM, completeArgs, completeItemFor } from './complete-item.ts';
import type { PgDb } from './handle.ts';
import { endRequest, toRequest } from './requests.ts';

/** An applied change: what it ended, and whether the credit rule refused the completion. `alone`: the
 *  statement ran on its own and made the ended request's deliveries itself (its `deliveries` column). */
function fanIn(r: Row, finished: RequestRow | null, stored?: FanIn['stored'], alone = false): FanIn {
  const fan: FanIn = { applied: true, finished };
  if (finished && alone) fan.deliveries = r.deliveries;
  if (r.balance_exhausted) return { ...fan, balanceExhausted: true };
  // The records went in whole, as one value and no chunks before them: the synchronous answer can be
  // sent from them instead of read back (COMPLETE_ITEM's stored_chunks; as SQLite does).
  if (stored && r.stored_chunks === 0) fan.stored = stored;
  return fan;
}

/** Runs COMPLETE_ITEM or FAIL_ITEM alone; when that cannot apply (a dropDuplicates request, or an
 *  item this owner no longer holds) runs it again in a transaction that can end any request, or says no. */
async function endItem(h: PgDb, sql: string, args: (alone: boolean) => unknown[], now: number, stored?: FanIn['stored']): Promise<FanIn> {
  const [fast] = await h.q(sql, args(true));
  if (fast) return fanIn(fast, fast.status === 'Pending' ? null : toRequest(fast), stored, true);
  return h.tx(async (c): Promise<FanIn> => {
    const [r] = await h.q(sql, args(false), c);
    if (!r) return { applied: false, finished: null };
    return fanIn(r, r.status === 'Pending' ? null : await endRequest(h, c, r, now), stored);
  });
}


/** The accounts with an unfinished request, walked one index entry at a time (migration 140's index,
 *  as SQLite's FAIR_HEADS walks them): each step is an index scan of one row, which marks the dead
 *  entries it passes (versions of requests that ended since) so later claims skip them. A bitmap
 *  scan of the unfinished requests, which the planner preferred, never marks them and read every
 *  one again at each claim (issue 37, session 16). Needs `WITH RECURSIVE` at the head of its statement. */
const OPEN_ACCOUNTS = `open_accounts AS (
    (SELECT r.account_id FROM requests r WHERE r.finished_at IS NULL ORDER BY r.account_id LIMIT 1)
    UNION ALL
    SELECT n.account_id FROM open_accounts o
    CROSS JOIN LATERAL (SELECT r.account_id FROM requests r WHERE r.finished_at IS NULL AND r.account_id > o.account_id ORDER BY r.account_id LIMIT 1) n)`;

/** Each account's head, in the order of its request's creation: its oldest unfinished request with a
 *  due queued item, and that item (the first by query index: an index seek on migration 181's index,
 *  the order no other index gives, so the planner does not scan by due time). */
const HEADS = `SELECT h.account_id, h.id, h.created_at FROM open_accounts o
  CROSS JOIN LATERAL (SELECT r.account_id, q.id, r.created_at, r.id AS request_id FROM requests r
    CROSS JOIN LATERAL (SELECT w.id FROM work_items w WHERE w.request_id = r.id AND w.state = 'queued' AND w.run_after <= $1
                        ORDER BY w.query_index LIMIT 1) q
    WHERE r.account_id = o.account_id AND r.finished_at IS NULL ORDER BY r.created_at, r.id LIMIT 1) h
  ORDER BY h.created_at, h.request_id`;

/** The heads as a statement of their own. */
export const FAIR_HEADS = `WITH RECURSIVE ${OPEN_ACCOUNTS} ${HEADS}`;

/** What a claim leases and returns: the item, its request's account, endpoint and unit price, the
 *  parameters of a request not in `$5` (the ids this process has cached), whether the item has a
 *  checkpoint (migration 165's function reads it after the row is locked, with a fresh snapshot, so a
 *  step saved by a worker whose lease ran out just before is seen), and what its account can pay
 *  (the purse's first ask, WorkItem.payable). */
const CLAIM_LEASE = `UPDATE work_items w SET state = 'leased', lease_owner = $3, lease_until = $4, attempts = w.attempts + 1
  FROM pick, requests r, accounts a WHERE w.id = pick.id AND r.id = w.request_id AND a.id = r.account_id
  RETURNING w.id, w.request_id, w.query_index, w.query, w.attempts, w.max_attempts, w.run_after, r.account_id, r.endpoint, r.unit_price_micros, r.queries_total,
            CASE WHEN r.id = ANY($5::text[]) THEN NULL ELSE r.params::text END AS params_text, item_checkpointed(w.request_id, w.query_index) AS checkpointed,
            CASE WHEN ${canChargeSql('a')} THEN a.balance_micros + a.credit_limit_micros ELSE 0 END AS payable_micros`;

/**
 * A claim in one statement: each account's oldest due item first, the least busy accounts first
 * (../requests/fairness.ts: `heads` in creation order, one per account, ordered by the items
 * it has leased), then queued items oldest due first, then items whose lease ran out; rows another
 * claimer holds are skipped, not waited for. `pick`'s LIMIT stops the later scans when the first sufficed.
 *
 * Two parts are shaped for a planner without statistics (autovacuum off, or a new database) and for
 * the index entries every update leaves until VACUUM (issue 37, session 18): planned once, both were
 * bitmap scans that visit the heap page of every such entry, and a bitmap scan never marks one dead;
 * after 10,000 queries they read 400 of the claim's 634 pages.
 * - `busy` is counted only when there are more heads than the claim takes: otherwise every head is
 *   taken whatever the order (`f` before `q` and `l` in `pick`). It walked the leased items' index,
 *   whose entries of items leased within a lease's length and done since are all still there.
 * - `f` locks each fair head by its key (LATERAL, one look-up a head) rather than letting the
 *   planner walk every queued item's entry by due time and join the heads to them.
 */
export const CLAIM = `WITH RECURSIVE ${OPEN_ACCOUNTS},
  heads AS (${HEADS}),
  busy AS (SELECT r.account_id, count(*) AS n FROM work_items w JOIN requests r ON r.id = w.request_id
           WHERE (SELECT count(*) FROM heads) > $2 AND w.state = 'leased' AND w.lease_until >= $1 GROUP BY r.account_id),
  fair AS (SELECT heads.id FROM heads LEFT JOIN busy ON busy.account_id = heads.account_id ORDER BY COALESCE(busy.n, 0), heads.created_at, heads.id LIMIT $2),
  f AS (SELECT x.id FROM fair CROSS JOIN LATERAL (SELECT w.id FROM work_items w WHERE w.id = fair.id AND w.state = 'queued' AND w.run_after <= $1
                                                   FOR UPDATE SKIP LOCKED) x),
  q AS (SELECT id FROM work_items WHERE state = 'queued' AND run_after <= $1 AND id NOT IN (SELECT id FROM fair) ORDER BY run_after LIMIT $2 FOR UPDATE SKIP LOCKED),
  l AS (SELECT id FROM work_items WHERE state = 'leased' AND lease_until < $1 ORDER BY lease_until LIMIT $2 FOR UPDATE SKIP LOCKED),
  pick AS (SELECT id FROM f UNION ALL SELECT id FROM q UNION ALL SELECT id FROM l LIMIT $2)
  ${CLAIM_LEASE}`;

/** A claim of the items `$6` still due (queued, or leased with the lease run out). */
const CLAIM_BY_ID = `WITH pick AS (SELECT id FROM work_items WHERE id = ANY($6::text[])
                    AND ((state = 'queued' AND run_after <= $1) OR (state = 'leased' AND lease_until < $1))
                  LIMIT $2 FOR UPDATE SKIP LOCKED)
  ${CLAIM_LEASE}`;

type ItemMethods = 'claimItems' | 'heartbeat' | 'completeItem' | 'failItem' | 'releaseItems' | 'itemCounts' | 'queuedItemIds' | 'runnableItems';

export class PostgresItems implements Required<Pick<RequestStore, ItemMethods>> {
  /** Each request's parameters read once, not with each of its items (../requests/params-cache.ts). */
  private readonly params = new ParamsCache();

  /** `free`: shared with the store's PostgresResults, whose checkpoints it is told of. */
  constructor(private readonly h: PgDb, private readonly free = new CheckpointFree()) {}

  async claimItems(owner: string, max: number, leaseMs: number, now: number, ids?: string[], exceptAccounts?: string[]): Promise<WorkItem[]> {
    if (max <= 0 || (ids && !ids.length)) return [];
    // Heads of the other accounts only, claimed by id (each still due, skipped if another claimer
    // took it); a head lost to another process is read again, so a lost race is not "none waits".
    if (!ids && exceptAccounts) {
      for (let round = 0; round < 3; round++) {
        const heads = await this.fairHeads(now, max, exceptAccounts);
        if (!heads.length) return [];
        const got = await this.claimItems(owner, max, leaseMs, now, heads);
        if (got.length) return got;
      }
      return [];
    }
    // One statement, one round trip (issue 37: the fair heads, the busy counts and the claim were
    // three, and a fourth read the parameters of requests not cached): parameters come back only for
    // requests this process has not cached, as text, parsed once per request below.
    const cached = this.params.ids();
    const readFrom = performance.now();
    const rows = await this.h.q(ids ? CLAIM_BY_ID : CLAIM, ids ? [now, max, owner, now + leaseMs, cached, ids] : [now, max, owner, now + leaseMs, cached]);
    if (ids) rows.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
    else rows.sort((a, b) => a.run_after - b.run_after);
    // Parameters from the cache or this reply (this batch's own map: a batch of many requests may
    // push its first ones out of the cache); a request pushed out while the claim ran is read again.
    const params = new Map<string, Record<string, unknown>>();
    for (const x of rows) {
      if (params.has(x.request_id)) continue;
      // A request of one query is not kept: its one item is claimed once (a retry reads it again).
      const p = x.params_text != null ? this.params.put(x.request_id, JSON.parse(x.params_text), x.queries_total > 1) : this.params.get(x.request_id);
      if (p) params.set(x.request_id, p);
    }
    for (const x of rows) this.free.leased(x.id, owner, x.checkpointed);
    const missing = [...new Set(rows.map((x) => x.request_id as string))].filter((id) => !params.has(id));
    if (missing.length) for (const r of await this.h.q('SELECT id, params FROM requests WHERE id = ANY($1::text[])', [missing])) params.set(r.id, this.params.put(r.id, r.params));
    return rows.map((x) => ({
      id: x.id, requestId: x.request_id, accountId: x.account_id, endpoint: x.endpoint, queryIndex: x.query_index,
      query: x.query, params: params.get(x.request_id) ?? {}, attempts: x.attempts, maxAttempts: x.max_attempts, unitPriceMicros: Number(x.unit_price_micros),
      checkpointed: x.checkpointed, payable: { micros: Number(x.payable_micros), readFrom },
    }));
  }

  /** The fair part of a claim (../requests/fairness.ts): ids of each account's oldest due item,
   *  fewest leased first. Read without locks; the claim skips what another claimer took meanwhile. */
  private async fairHeads(now: number, max: number, except?: string[]): Promise<string[]> {
    const [heads, busy] = await Promise.all([
      this.h.q(FAIR_HEADS, [now]),
      this.h.q(`SELECT r.account_id, count(*)::int AS n FROM work_items w JOIN requests r ON r.id = w.request_id
                WHERE w.state = 'leased' AND w.lease_until >= $1 GROUP BY r.account_id`, [now]),
    ]);
    return pickFair(heads, new Map(busy.map((b) => [b.account_id as string, b.n as number])), max, except).map((x) => x.id as string);
  }

  async heartbeat(owner: string, itemIds: string[], leaseUntil: number): Promise<void> {
    if (!itemIds.length) return;
    await this.h.q(`UPDATE work_items SET lease_until = $1 WHERE id = ANY($2::text[]) AND lease_owner = $3 AND state = 'leased'`, [leaseUntil, itemIds, owner]);
  }

  async completeItem(o: ItemOutcome): Promise<FanIn> {
    const h = this.h;
    // Without the checkpoint's deletes when the item can have none (./checkpoint-free.ts).
    const sql = completeItemFor(o, !this.free.take(o.itemId, o.owner));
    if (o.totalLimit === undefined) {
      // Encoded once (../utf8.ts): the driver sends these bytes as the text parameter, and the
      // synchronous answer sends the same, instead of each encoding the text again.
      const bytes = { ...o, recordsUtf8: o.recordsUtf8 ?? utf8Of(o.recordsJson) };
      return endItem(h, sql, (alone) => completeArgs(bytes, alone), o.now, storedOf(o, bytes.recordsUtf8));
    }
    // totalLimit: the records the request kept so far decide the cut, so they are read under the
    // request's row lock (item first, then request: the usual order) and concurrent items of one
    // request never deliver or bill past the limit.
    return h.tx(async (c): Promise<FanIn> => {
      const [it] = await h.q(`SELECT request_id FROM work_items WHERE id = $1 AND state = 'leased' AND lease_owner = $2 FOR UPDATE`, [o.itemId, o.owner], c);
      if (!it) return { applied: false, finished: null };
      const [req] = await h.q('SELECT records FROM requests WHERE id = $1 FOR UPDATE', [it.request_id], c);
      const capped = capToTotal(o, req.records);
      const [r] = await h.q(sql, completeArgs(capped, false), c);
      if (!r) return { applied: false, finished: null };
      return fanIn(r, r.status === 'Pending' ? null : await endRequest(h, c, r, o.now), storedOf(capped));
    });
  }

  async failItem(itemId: string, owner: string, error: string, retryAt: number | null, now: number): Promise<FanIn> {
    this.free.forget(itemId);
    if (retryAt !== null) {
      const n = await this.h.n(`UPDATE work_items w SET state = 'queued', lease_owner = NULL, lease_until = NULL, run_after = $3, error = $4
                                FROM requests r WHERE w.id = $1 AND w.state = 'leased' AND w.lease_owner = $2
                                AND r.id = w.request_id AND r.status = 'Pending'`, [itemId, owner, retryAt, error]);
      return { applied: n > 0, finished: null };
    }
    return endItem(this.h, FAIL_ITEM, (alone) => [itemId, owner, error, now, alone], now);
  }

  async releaseItems(owner: string, now: number, ids?: string[]): Promise<number> {
    for (const id of ids ?? []) this.free.forget(id);
    // attempts is decremented: a hand-back is not a failed attempt.
    return this.h.n(`UPDATE work_items SET state = 'queued', lease_owner = NULL, lease_until = NULL, run_after = $1, attempts = GREATEST(attempts - 1, 0)
                     WHERE state = 'leased' AND lease_owner = $2 AND ($3::text[] IS NULL OR id = ANY($3::text[]))`, [now, owner, ids ?? null]);
  }

  async itemCounts(): Promise<Record<ItemState, number>> {
    const out: Record<ItemState, number> = { queued: 0, leased: 0, done: 0, failed: 0, cancelled: 0 };
    for (const r of await this.h.q('SELECT state, COUNT(*) AS n FROM work_items GROUP BY state')) out[r.state as ItemState] = r.n;
    return out;
  }

  async queuedItemIds(limit: number): Promise<string[]> {
    return (await this.h.q(`SELECT id FROM work_items WHERE state IN ('queued', 'leased') ORDER BY run_after LIMIT $1`, [limit])).map((r) => r.id);
  }

  /**
   * Items a worker could claim right now (queued and due, or leased with an expired lease), with their
   * attempt count (see Store.runnableItems).
   *
   * @example await store.runnableItems(Date.now(), 500) // [{ id: 'req:0', attempts: 1 }]
   */
  async runnableItems(now: number, limit: number): Promise<{ id: string; attempts: number }[]> {
    return (await this.h.q(`(SELECT id, attempts FROM work_items WHERE state = 'queued' AND run_after <= $1 ORDER BY run_after LIMIT $2)
                            UNION ALL
                            (SELECT id, attempts FROM work_items WHERE state = 'leased' AND lease_until < $1 ORDER BY lease_until LIMIT $2)
                            LIMIT $2`, [now, limit])).map((r) => ({ id: r.id, attempts: r.attempts }));
  }
}
