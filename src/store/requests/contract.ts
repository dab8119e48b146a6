/**
 * Requests and work items, the store's part that runs work (issue 16): a request fans out into one
 * work item per query; workers lease items, complete or fail them, and the item that ends last ends
 * its request (fan-in).
 *
 * Exactly-once effects (principle 6): `completeItem` and `failItem` succeed only for the lease owner
 * of a leased item; results (../results), usage (../billing) and the webhook delivery of an ending
 * request (../webhooks) are written in the same transaction as the item's state change, so a
 * re-delivered item can never write or bill twice.
 *
 * @example const [it] = await store.claimItems('w1', 1, 60_000, now); await store.completeItem({ itemId: it.id, owner: 'w1', ... })
 */
import type { Micros } from '../../billing/money.ts';

export type RequestStatus = 'Pending' | 'Success' | 'Failure';

/**
 * The most work items a request is stored with (issue 39). A request of more queries (a task's
 * expansion, up to 50,000) is stored with its queries waiting in chunks of ITEMS_AT_ONCE instead:
 * `writeWaitingItems` turns them into items after the answer, which so waits for no index entry of
 * them (PostgreSQL's insert of 10,000 items was a 10,000-query task's answer past 100 ms). Every
 * request of the interface's 1000 queries is stored with its items, as before.
 */
export const ITEMS_AT_ONCE = 1000;

/** What one `writeWaitingItems` call wrote: items `from` to `to - 1` of the request. */
export interface WrittenItems { requestId: string; from: number; to: number }
export type ItemState = 'queued' | 'leased' | 'done' | 'failed' | 'cancelled';

export interface NewRequest {
  id: string;
  accountId: string;
  endpoint: string;
  /** Validated parameters, query excluded. */
  params: Record<string, unknown>;
  queries: string[];
  webhook: string | null;
  /** Billing product (e.g. 'engine_maps_search') and unit (e.g. 'place'). */
  product: string;
  unit: string;
  unitPriceMicros: Micros;
  /** A query with no record still costs one unit. */
  emptyCostsOne: boolean;
  /** Records equal across queries are dropped; each item then reports the keys of its records and is
   *  billed only for keys not seen before in the request (decision 20). */
  dropDuplicates: boolean;
  taskId: string | null;
  maxAttempts: number;
  createdAt: number;
}

/** A request as stored: what it was created with (queries and attempts aside), and its progress. */
export interface RequestRow extends Omit<NewRequest, 'queries' | 'maxAttempts'> {
  status: RequestStatus;
  queriesTotal: number;
  queriesDone: number;
  records: number;
  /** Units billed so far. */
  usage: number;
  cancelled: boolean;
  finishedAt: number | null;
}

export interface WorkItem {
  id: string;
  requestId: string;
  accountId: string;
  endpoint: string;
  queryIndex: number;
  query: string;
  params: Record<string, unknown>;
  attempts: number;
  maxAttempts: number;
  /** The request's unit price, read with the claim (both stores), so the runner's purse needs no
   *  read of the request (issue 37). Absent on items built elsewhere: the runner reads the request. */
  unitPriceMicros?: number;
  /** Whether the item had a checkpoint when it was claimed (both stores read it in the claim); false
   *  spares the runner reading one that cannot exist (issue 37). Absent: unknown, the runner reads it. */
  checkpointed?: boolean;
  /** What the account could pay (balance plus credit limit, 0 when it may not be charged) as the
   *  claim read it, and performance.now() before the claim was sent (SQLite: before its reads): the purse's first ask answers
   *  from it (src/billing/purse.ts, PursePrice.claimed), not from a read of its own (both stores, issue 37). */
  payable?: { micros: number; readFrom: number };
}

export interface ItemOutcome {
  itemId: string;
  owner: string;
  /** JSON array text of the records. */
  recordsJson: string;
  /** Its UTF-8 bytes, when the runner encoded them a slice a turn (a big result, src/engine/
   *  encode-records.ts): the store writes these rather than encoding the text again in one go. */
  recordsUtf8?: Buffer;
  count: number;
  /** Billable units when they differ from the record count (see adapter `units`). */
  units?: number;
  /** The request's `totalLimit`: records beyond it (counting what earlier items kept) are cut here,
   *  inside the transaction, so concurrent items never deliver or bill past it. */
  totalLimit?: number;
  /** With dropDuplicates: one identity key per record (same order as the records). */
  dedupeKeys?: string[];
  /** True: the chunks saved with saveProgress are the query's first records and `recordsJson` is
   *  its tail; `count` and `units` cover the whole query. False/absent: `recordsJson` is the whole
   *  result and any saved chunks (a buffering adapter's checkpoint) are deleted. Never combined with
   *  totalLimit or dedupeKeys (they need the whole query in one place). */
  streamed?: boolean;
  /** A query that ended early keeps its records and says why (`step_budget: ...`), see QueryResult.error. */
  note?: string;
  /** Products billed besides the request's own (map-place enrichments): each as many units as the
   *  item bills of its own product (its places after totalLimit/dropDuplicates; not the one unit an
   *  empty query costs), in the same transaction, one usage line keyed `<item id>|<product>` so a
   *  repeated completion bills nothing. They do not count in the request's `usage`. */
  extraProducts?: ExtraProduct[];
  now: number;
}

/** A product billed per place besides the request's own (a map-place enrichment). */
export interface ExtraProduct { product: string; unit: string; unitPriceMicros: Micros }

/** What a state change of an item did to its request. */
export interface FanIn {
  /** False when the item was not leased by this owner any more (a stale worker): nothing was written. */
  applied: boolean;
  /** The request, when this change ended it. */
  finished: RequestRow | null;
  /** A completion the store refused because the account may not be charged (balance plus credit
   *  used up, or flagged past due): the query ended as failed with BALANCE_EXHAUSTED
   *  (src/billing/credit.ts), nothing delivered or billed. */
  balanceExhausted?: boolean;
  /** A completion that stored its query's result whole (not after streamed chunks): the result as
   *  stored, so a caller holding the request's only query answers from it without reading it back
   *  (the synchronous answer, issue 15). Optional: a store may leave it out, and callers then read. */
  stored?: { recordsJson: string; recordsUtf8?: Buffer; count: number; error: string | null };
  /** Whether the change that ended the request made a webhook delivery to send: false says none (no
   *  webhook, no subscription), so no delivery round is needed for it (issue 37). Optional: absent
   *  when the store does not say, and callers then look. */
  deliveries?: boolean;
}

export interface RequestStore {
  /** Stores the request, durable when this resolves, with its work items; past ITEMS_AT_ONCE queries,
   *  with its queries waiting in chunks instead, until `writeWaitingItems` writes them (a crash in
   *  between loses none: any process's next call writes them). The request counts every query from
   *  the start (`queriesTotal`), so it cannot end before its last item is written and ended. True when
   *  it stored it. `whilePayable`: only while its account may be charged (the credit rule,
   *  src/billing/credit.ts, read in the same statement as the insert: the submit's check without a
   *  read of its own, issue 37); false, and nothing stored, otherwise. */
  createRequest(r: NewRequest, o?: { whilePayable?: boolean }): Promise<boolean>;
  /** Writes one waiting chunk (at most ITEMS_AT_ONCE queries) as queued work items, in one
   *  transaction with removing it from the waiting ones: the oldest request's first chunk, skipping a
   *  chunk another caller is writing, so any number of processes may call at once and each chunk is
   *  written once. A chunk of a request that ended meanwhile (cancelled) is dropped, not written.
   *  Null when nothing waits. */
  writeWaitingItems(): Promise<WrittenItems | null>;
  getRequest(id: string): Promise<RequestRow | null>;
  /** When the request ended (null while it runs), without reading the rest of its row: null when
   *  there is no such request. What the monitor scheduler asks of each running run on each look, where
   *  the whole row (a run's parameters name up to 1,000 places) cost more than the run's own work. */
  requestEnd(id: string): Promise<{ finishedAt: number | null } | null>;
  /** The rows of those of `ids` that have ended, in one read: what a process's synchronous waits
   *  poll together (app/results.ts: a read per wait every 250 ms was the most frequent round trip
   *  of a map search on PostgreSQL, issue 37). */
  endedRequests(ids: string[]): Promise<RequestRow[]>;
  /** Newest first, created at or after `since`. */
  listRequests(accountId: string, opts: { finished: boolean; since: number; skip: number; limit: number }): Promise<RequestRow[]>;
  /** Deletes results and items of requests finished before `resultsBefore`, and whole requests
   *  created before `requestsBefore`; returns how many requests lost their results or were deleted.
   *  With `limit`, at most `limit` requests per kind in one short transaction: the janitor calls
   *  again while a call returns `limit` or more (issue 15: a 100k purge in one go blocked 5.8 s). */
  purge(resultsBefore: number, requestsBefore: number, limit?: number): Promise<number>;

  /** Leases up to `max` runnable items (queued with runAfter <= now, or leased with an expired lease).
   *  With `exceptAccounts` (and no `ids`): only the fair heads (../requests/fairness.ts) of accounts
   *  not listed, at most one item per account: what a long item lends its slot to (src/engine/lending.ts). */
  claimItems(owner: string, max: number, leaseMs: number, now: number, ids?: string[], exceptAccounts?: string[]): Promise<WorkItem[]>;
  heartbeat(owner: string, itemIds: string[], leaseUntil: number): Promise<void>;
  /** Bills the item only while its account may be charged (not past due, balance plus credit above
   *  zero), checked atomically with the charge; otherwise the query fails with BALANCE_EXHAUSTED
   *  (`balanceExhausted` in the answer). The dropDuplicates surcharge of the request's last item is
   *  cut to what the account can still take (src/billing/credit.ts). */
  completeItem(o: ItemOutcome): Promise<FanIn>;
  /** retryAt null: the item fails for good (its query ends with no records and the error, and its
   *  checkpoint is dropped); a retry keeps the checkpoint. */
  failItem(itemId: string, owner: string, error: string, retryAt: number | null, now: number): Promise<FanIn>;
  /** Graceful shutdown: hands leased items back to the queue, due at `now`, the claim not counted as
   *  an attempt; with `ids`, only those (a lent item given back, src/engine/lending.ts). */
  releaseItems(owner: string, now: number, ids?: string[]): Promise<number>;
  /** Cancels unfinished items, and drops the queries still waiting to become items (each counted as
   *  done, like a cancelled item); the request ends as Failure (decision 14). */
  cancelRequest(requestId: string, now: number): Promise<FanIn>;
  /** Number of items per state (metrics). */
  itemCounts(): Promise<Record<ItemState, number>>;
  /** Ids of queued items of running requests (used by queue backends to re-enqueue after a restart). */
  queuedItemIds(limit: number): Promise<string[]>;
  /** Optional: items a worker could claim right now (queued and due, or leased with an expired lease),
   *  with their attempt count; queue backends re-announce these (src/engine/backends/runnable.ts). */
  runnableItems?(now: number, limit: number): Promise<{ id: string; attempts: number }[]>;
  /** Optional: from now on the insert of a request may lease its items to `to` in the same statement
   *  (no claim after it), when `to` holds free slots for them and no other item is queued and due (a
   *  claim would then take every one of them, whatever the fair order). Returns what stops it. */
  leaseAtInsert?(to: InsertLease): () => void;
}

/** A consumer in this process that items may be leased to by their insert (RequestStore.leaseAtInsert):
 *  the embedded queue's free slots (issue 37, PostgreSQL: the claim a query was its second statement). */
export interface InsertLease {
  owner: string;
  leaseMs: number;
  /** The consumer's clock: what is due, and the lease's end. */
  now(): number;
  /** Holds `n` free slots for the items of an insert about to be sent; false, and nothing held, when there are not `n`. */
  reserve(n: number): boolean;
  /** The insert's answer for the `n` slots held: the items it leased (none when it could not), run at
   *  once; the slots of the rest are freed. */
  take(items: WorkItem[], n: number): void;
}
