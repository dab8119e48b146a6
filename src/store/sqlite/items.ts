/**
 * Work items on SQLite (../requests/contract.ts): leases, and the one transaction that ends an item.
 * A completion checks the lease and the credit rule, stores the records (./results.ts), bills them
 * (./billing.ts, the rule of src/billing/rule.ts), counts the item on its request and, when it was the
 * last, ends the request (./requests.ts). It runs in the handle's group commit, and SQLite runs one
 * transaction at a time, so the credit check holds for the charge that follows.
 *
 * @example const [it] = await new SqliteItems(h).claimItems('w1', 1, 60_000, Date.now());
 */
import { BALANCE_EXHAUSTED, canChargeSql } from '../../billing/credit.ts';
import { itemBilling, itemQuantity } from '../../billing/rule.ts';
import { capToTotal } from '../cap.ts';
import type { FanIn, ItemOutcome, ItemState, RequestStore, WorkItem } from '../requests/contract.ts';
import { splitItemId, type Row } from '../rows.ts';
import { storedOf } from '../requests/stored.ts';
import { pickFair } from '../requests/fairness.ts';
import { ParamsCache } from '../requests/params-cache.ts';
import { billUsage } from './billing.ts';
import type { SqliteDb } from './handle.ts';
import { ownedItem } from './lease.ts';
import { countCompletion, finishIfDone } from './requests.ts';
import { dropProgress, savedChunks, storeResult } from './results.ts';
import { utf8Of } from '../utf8.ts';

/** Ends a leased item's query with no records and the error; inside the caller's transaction. */
function failForGood(h: SqliteDb, it: Row, itemId: string, error: string, now: number): FanIn {
  storeResult(h, it.request_id, it.query_index, '[]', 0, error);
  dropProgress(h, it.request_id, it.query_index, false);
  h.s(`UPDATE work_items SET state = 'failed', lease_owner = NULL, lease_until = NULL, error = ? WHERE id = ?`).run(error, itemId);
  h.s('UPDATE requests SET queries_done = queries_done + 1 WHERE id = ?').run(it.request_id);
  return { applied: true, ...finishIfDone(h, it.request_id, now) };
}

/** Records the item's dropDuplicates keys; how many were new to the request. */
function addKeys(h: SqliteDb, requestId: string, keys: string[]): number {
  const ins = h.s('INSERT OR IGNORE INTO request_keys (request_id, key) VALUES (?, ?)');
  let added = 0;
  for (const k of keys) added += ins.run(requestId, k).changes;
  return added;
}

/**
 * The fair part of a claim (../requests/fairness.ts): each account's oldest due item (the first of
 * its unfinished requests', by key), accounts with the fewest items leased first. The claim fills any
 * slots left oldest first.
 *
 * O(accounts with unfinished requests), each an index seek (migration 110), not O(the backlog): the
 * accounts are walked one index hop at a time (the next account after the last), and in each the
 * requests oldest first until one has a due queued item, found in the index of queued items by its
 * key range. A request whose items all run or wait for a retry costs one seek; only an account whose
 * every open request is in that state costs as many as it has open requests.
 */
function fairHeads(h: SqliteDb, now: number, max: number, except?: string[]): Row[] {
  // Each head as `<created_at, 15 digits>|<item id>`: one scalar subquery per account (SQLite has no LATERAL).
  const rows = h.s(`WITH RECURSIVE acc(a) AS (
                      SELECT (SELECT min(account_id) FROM requests INDEXED BY requests_open_by_account WHERE finished_at IS NULL)
                      UNION ALL
                      SELECT (SELECT min(account_id) FROM requests INDEXED BY requests_open_by_account WHERE finished_at IS NULL AND account_id > acc.a)
                      FROM acc WHERE acc.a IS NOT NULL)
                    SELECT acc.a AS account_id, (
                      SELECT printf('%015d|%s', r.created_at, w.id)
                      FROM requests r INDEXED BY requests_open_by_account
                      JOIN work_items w INDEXED BY work_items_queued ON w.id > r.id || ':' AND w.id < r.id || ';' AND w.state = 'queued' AND w.run_after <= ?
                      WHERE r.account_id = acc.a AND r.finished_at IS NULL
                      ORDER BY r.created_at LIMIT 1) AS head
                    FROM acc WHERE acc.a IS NOT NULL`).all(now) as Row[];
  const heads = rows.filter((x) => x.head !== null).sort((x, y) => (x.head < y.head ? -1 : x.head > y.head ? 1 : 0))
    .map((x) => ({ account_id: x.account_id, id: (x.head as string).slice(16) }));
  // One account's head (a box serving one account, or one with work due): no order among accounts
  // to find, so no count of their leased items (a statement of every other claim, issue 37).
  if (heads.length < 2) return pickFair(heads, new Map(), max, except);
  const busy = h.s(`SELECT r.account_id AS account_id, count(*) AS n FROM work_items w JOIN requests r ON r.id = w.request_id
                    WHERE w.state = 'leased' AND w.lease_until >= ? GROUP BY r.account_id`).all(now) as Row[];
  return pickFair(heads, new Map(busy.map((b) => [b.account_id as string, b.n as number])), max, except);
}

// What a claim returns of each item (built once: a text built at each claim is a new string for the statement cache to hash).
const CLAIMED_COLS = `w.id, w.request_id, w.query_index, w.query, w.attempts, w.max_attempts, r.account_id, r.endpoint, r.unit_price_micros,
                      EXISTS (SELECT 1 FROM item_progress p WHERE p.request_id = w.request_id AND p.query_index = w.query_index) AS checkpointed,
                      CASE WHEN ${canChargeSql('a')} THEN a.balance_micros + a.credit_limit_micros ELSE 0 END AS payable_micros`;
const CLAIMED_FROM = 'FROM work_items w JOIN requests r ON r.id = w.request_id JOIN accounts a ON a.id = r.account_id WHERE w.id = ?';
const CLAIMED = `SELECT ${CLAIMED_COLS} ${CLAIMED_FROM}`;
const CLAIMED_WITH_PARAMS = `SELECT ${CLAIMED_COLS}, r.params ${CLAIMED_FROM}`;

type ItemMethods = 'claimItems' | 'heartbeat' | 'completeItem' | 'failItem' | 'releaseItems' | 'itemCounts' | 'queuedItemIds' | 'runnableItems';

export class SqliteItems implements Required<Pick<RequestStore, ItemMethods>> {
  /** Each request's parameters parsed once, not with each of its items (../requests/params-cache.ts). */
  private readonly params = new ParamsCache();

  constructor(private readonly h: SqliteDb) {}

  async claimItems(owner: string, max: number, leaseMs: number, now: number, ids?: string[], exceptAccounts?: string[]): Promise<WorkItem[]> {
    const h = this.h;
    // In the group commit: a claim shares its commit with the completions and submits of the same
    // turn instead of committing alone, once a query (issue 37).
    return h.grouped(() => {
      let rows: Row[];
      if (!ids && exceptAccounts) {
        rows = fairHeads(h, now, max, exceptAccounts);
      } else if (ids) {
        const q = h.s(`SELECT id FROM work_items WHERE id = ? AND ((state = 'queued' AND run_after <= ?) OR (state = 'leased' AND lease_until < ?))`);
        rows = ids.map((id) => q.get(id, now, now) as Row | undefined).filter((r): r is Row => !!r).slice(0, max);
      } else {
        rows = fairHeads(h, now, max);
        if (rows.length < max) {
          const taken = new Set(rows.map((r) => r.id));
          const fifo = h.s(`SELECT id FROM work_items WHERE state = 'queued' AND run_after <= ? ORDER BY run_after LIMIT ?`).all(now, max) as Row[];
          rows = rows.concat(fifo.filter((r) => !taken.has(r.id)).slice(0, max - rows.length));
        }
        if (rows.length < max) {
          rows = rows.concat(h.s(`SELECT id FROM work_items WHERE state = 'leased' AND lease_until < ? LIMIT ?`).all(now, max - rows.length) as Row[]);
        }
      }
      const lease = h.s(`UPDATE work_items SET state = 'leased', lease_owner = ?, lease_until = ?, attempts = attempts + 1 WHERE id = ?`);
      // Whether it has a checkpoint, read in the claim's transaction: false spares the runner its read.
      // What the account can pay: the purse's first ask answers from it (WorkItem.payable; a read of
      // the account of its own a query, as on PostgreSQL since session 13). The request's parameters
      // in the same join unless cached (a statement of their own was one more a query: most requests
      // are claimed once; a big task's parameters are read once, not per item).
      const get = h.s(CLAIMED);
      const getWithParams = h.s(CLAIMED_WITH_PARAMS);
      // Synchronous: nothing of this process runs between this mark and the reads below.
      const readFrom = performance.now();
      return rows.map((r) => {
        lease.run(owner, now + leaseMs, r.id);
        const [requestId] = splitItemId(r.id);
        let cached = this.params.get(requestId);
        let x = (cached ? get : getWithParams).get(r.id) as Row;
        // An id is `<request id>:<index>` (createRequest): never another request's parameters.
        if (cached && x.request_id !== requestId) { cached = undefined; x = getWithParams.get(r.id) as Row; }
        return {
          id: x.id, requestId: x.request_id, accountId: x.account_id, endpoint: x.endpoint, queryIndex: x.query_index,
          query: x.query, params: cached ?? this.params.put(x.request_id, JSON.parse(x.params)), attempts: x.attempts, maxAttempts: x.max_attempts, unitPriceMicros: x.unit_price_micros,
          checkpointed: x.checkpointed === 1, payable: { micros: x.payable_micros, readFrom },
        };
      });
    });
  }

  async heartbeat(owner: string, itemIds: string[], leaseUntil: number): Promise<void> {
    const u = this.h.s(`UPDATE work_items SET lease_until = ? WHERE id = ? AND lease_owner = ? AND state = 'leased'`);
    this.h.tx(() => { for (const id of itemIds) u.run(leaseUntil, id, owner); });
  }

  async completeItem(o: ItemOutcome & { cutByTotal?: boolean }): Promise<FanIn> {
    const h = this.h;
    // A big result (its bytes encoded by the runner a slice a turn) is compressed on the thread pool
    // before the transaction, not in it on this thread (issue 39; wasted if the item is not applied).
    const packed = o.recordsUtf8 ? await h.codec.packOffThread(o.recordsJson, o.recordsUtf8) : undefined;
    return h.grouped((): FanIn => {
      const it = ownedItem(h, o.itemId, o.owner);
      if (!it || it.status !== 'Pending') return { applied: false, finished: null };
      if (!it.payable) return { ...failForGood(h, it, o.itemId, BALANCE_EXHAUSTED, o.now), balanceExhausted: true };
      o = capToTotal(o, o.totalLimit === undefined ? 0 : (h.s('SELECT records FROM requests WHERE id = ?').get(it.request_id) as Row).records);
      const chunks = o.streamed ? savedChunks(h, it.request_id, it.query_index) : 0;
      // Encoded once: compressed here, and the synchronous answer sends the same bytes (FanIn.stored).
      const utf8 = o.recordsUtf8 ?? utf8Of(o.recordsJson);
      // Not when totalLimit cut the records (capToTotal drops their bytes): then they are packed here.
      const whole = storeResult(h, it.request_id, it.query_index, o.recordsJson, o.count, o.note ?? null, chunks, utf8, o.recordsUtf8 ? packed : undefined) && chunks === 0;
      if (it.checkpointed) dropProgress(h, it.request_id, it.query_index, !!o.streamed);
      h.s(`UPDATE work_items SET state = 'done', lease_owner = NULL, lease_until = NULL, error = NULL WHERE id = ?`).run(o.itemId);
      const deduped = !!it.drop_duplicates && !!o.dedupeKeys;
      const newKeys = deduped ? addKeys(h, it.request_id, o.dedupeKeys!) : 0;
      const billing = itemBilling({ count: o.count, units: o.units, cutByTotal: o.cutByTotal, deduped });
      const billed = billUsage(h, it, it.request_id, o.itemId, itemQuantity(billing, !!it.empty_costs_one, newKeys), o.now, undefined, false);
      // Per-place products (enrichments): what was found, never the unit an empty search costs.
      const places = itemQuantity(billing, false, newKeys);
      for (const e of o.extraProducts ?? []) billUsage(h, it, it.request_id, `${o.itemId}|${e.product}`, places, o.now, e);
      const fan: FanIn = { applied: true, ...countCompletion(h, it.request_id, billed, o.count, o.now) };
      if (whole) fan.stored = storedOf(o, utf8);
      return fan;
    });
  }

  async failItem(itemId: string, owner: string, error: string, retryAt: number | null, now: number): Promise<FanIn> {
    const h = this.h;
    return h.grouped((): FanIn => {
      const it = ownedItem(h, itemId, owner);
      if (!it || it.status !== 'Pending') return { applied: false, finished: null };
      if (retryAt !== null) {
        h.s(`UPDATE work_items SET state = 'queued', lease_owner = NULL, lease_until = NULL, run_after = ?, error = ? WHERE id = ?`).run(retryAt, error, itemId);
        return { applied: true, finished: null };
      }
      return failForGood(h, it, itemId, error, now);
    });
  }

  async releaseItems(owner: string, now: number, ids?: string[]): Promise<number> {
    // attempts is decremented: a hand-back is not a failed attempt.
    const set = `UPDATE work_items SET state = 'queued', lease_owner = NULL, lease_until = NULL, run_after = ?, attempts = MAX(attempts - 1, 0)
                 WHERE state = 'leased' AND lease_owner = ?`;
    if (!ids) return this.h.s(set).run(now, owner).changes;
    const one = this.h.s(`${set} AND id = ?`);
    return this.h.tx(() => ids.reduce((n, id) => n + one.run(now, owner, id).changes, 0));
  }

  async itemCounts(): Promise<Record<ItemState, number>> {
    const out: Record<ItemState, number> = { queued: 0, leased: 0, done: 0, failed: 0, cancelled: 0 };
    for (const r of this.h.s('SELECT state, COUNT(*) AS n FROM work_items GROUP BY state').all() as Row[]) out[r.state as ItemState] = r.n;
    return out;
  }

  async queuedItemIds(limit: number): Promise<string[]> {
    return (this.h.s(`SELECT id FROM work_items WHERE state IN ('queued', 'leased') ORDER BY run_after LIMIT ?`).all(limit) as Row[]).map((r) => r.id);
  }

  /** Items a worker could claim right now, with their attempt count (see Store.runnableItems). */
  async runnableItems(now: number, limit: number): Promise<{ id: string; attempts: number }[]> {
    return this.h.s(`SELECT id, attempts FROM (SELECT id, attempts FROM work_items WHERE state = 'queued' AND run_after <= @now ORDER BY run_after LIMIT @limit)
                     UNION ALL
                     SELECT id, attempts FROM (SELECT id, attempts FROM work_items WHERE state = 'leased' AND lease_until < @now LIMIT @limit)
                     LIMIT @limit`).all({ now, limit }) as { id: string; attempts: number }[];
  }
}
