/**
 * The storage contract (DESIGN.md principle 5). Every backend (SQLite embedded, PostgreSQL at scale)
 * implements it and passes the same conformance suite (src/store/conformance.ts).
 *
 * All times are Unix milliseconds passed in by the caller (`now`), so a test clock can drive expiry,
 * leases and retries. Methods are async so a networked backend fits the same shape.
 *
 * Exactly-once effects (principle 6): `completeItem` and `failItem` succeed only for the lease owner
 * of a leased item; results and usage are written in the same transaction as the item's state change,
 * so a re-delivered item can never write or bill twice.
 *
 * Money is integer micros, millionths of the account's currency unit (src/billing/money.ts); every
 * money field says so in its name.
 */
import type { Micros } from '../billing/money.ts';

export type RequestStatus = 'Pending' | 'Success' | 'Failure';
export type ItemState = 'queued' | 'leased' | 'done' | 'failed' | 'cancelled';
export type TaskStatus = 'PENDING' | 'RUNNING' | 'SUCCESS' | 'FAILURE' | 'CANCELED';

export interface Account {
  id: string;
  name: string;
  balanceMicros: Micros;
  /** Work may draw the balance down to -creditLimitMicros (decision 26). */
  creditLimitMicros: Micros;
  currency: string;
  pastDue: boolean;
  webhookSecret: string;
  /** Integration webhook used when a request gives none. */
  webhookUrl: string | null;
  /** Token bucket: average requests per second and burst (decision 21). */
  ratePerSec: number;
  burst: number;
  createdAt: number;
}

export interface ApiKeyRow {
  id: string;
  accountId: string;
  /** First characters of the key, to tell keys apart in listings; never enough to use it. */
  prefix: string;
  createdAt: number;
  revokedAt: number | null;
}

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

export interface RequestRow {
  id: string;
  accountId: string;
  endpoint: string;
  params: Record<string, unknown>;
  status: RequestStatus;
  queriesTotal: number;
  queriesDone: number;
  records: number;
  /** Units billed so far. */
  usage: number;
  webhook: string | null;
  product: string;
  unit: string;
  unitPriceMicros: Micros;
  emptyCostsOne: boolean;
  dropDuplicates: boolean;
  cancelled: boolean;
  taskId: string | null;
  createdAt: number;
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
}

export interface QueryResult {
  queryIndex: number;
  query: string;
  /** Records of this query as a JSON array text, exactly as stored. A query stored in chunks (a
   *  streamed paged query) comes as several parts in order, each an array text with the same
   *  queryIndex, `more` true on every part but the last; never one string for the whole query. */
  recordsJson: string;
  /** Records of the whole query (every part). */
  count: number;
  /** Set when the query ended in failure (`<type>: <message>`), or when it ended early with the
   *  records it had (e.g. `step_budget: ...`). */
  error: string | null;
  /** True when more parts of the same query follow. */
  more?: boolean;
}

/** A checkpoint of a running query, written after each step (see Store.saveProgress). */
export interface Checkpoint {
  itemId: string;
  owner: string;
  /** The runner's resume state (steps still to run, counters) as JSON text; the store keeps it as is. */
  state: string;
  /** Records of the step just run, as a JSON array text, stored as the query's next chunk. */
  chunk?: { recordsJson: string; count: number };
  now: number;
}

/** What a query checkpointed so far (see Store.loadProgress). */
export interface Progress {
  state: string;
  /** Chunks written (numbered from 0) and the records in them. */
  chunks: number;
  records: number;
}

export interface ItemOutcome {
  itemId: string;
  owner: string;
  /** JSON array text of the records. */
  recordsJson: string;
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

/** What a state change of an item did to its request. */
export interface FanIn {
  /** False when the item was not leased by this owner any more (a stale worker): nothing was written. */
  applied: boolean;
  /** The request, when this change ended it. */
  finished: RequestRow | null;
  /** A completion the store refused because the account's balance plus credit was used up: the
   *  query ended as failed with BALANCE_EXHAUSTED (src/billing/credit.ts), nothing delivered or billed. */
  balanceExhausted?: boolean;
}

/** A product billed per place besides the request's own (a map-place enrichment). */
export interface ExtraProduct { product: string; unit: string; unitPriceMicros: Micros }

export interface UsageLine {
  product: string;
  unit: string;
  quantity: number;
  amountMicros: Micros;
  unitPriceMicros: Micros;
}

/** A usage line outside work items; `key` is unique per billed answer. */
export interface DirectCharge {
  accountId: string;
  key: string;
  product: string;
  unit: string;
  quantity: number;
  unitPriceMicros: Micros;
  now: number;
}

/** A pending webhook call. Created in the same transaction that ends its request, so a crash cannot
 *  lose it; the body is composed at send time from the request (decision 15). */
export interface WebhookDelivery {
  id: string;
  accountId: string;
  requestId: string;
  url: string;
  attempts: number;
}

export interface WebhookCall {
  status: string;
  date: number;
}

export interface TaskRow {
  id: string;
  accountId: string;
  requestId: string | null;
  serviceName: string;
  queries: string[];
  tags: string[];
  /** The POST /tasks body as received (settings, enrichments ...). */
  spec: Record<string, unknown>;
  status: TaskStatus;
  format: string;
  /** Unguessable token that makes up the file URL. */
  fileToken: string | null;
  filePath: string | null;
  results: { product_name: string; quantity: number; file_url?: string }[];
  created: number;
  updated: number;
  queueTaskId: string;
}

export interface Store {
  readonly kind: 'sqlite' | 'postgres';
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** Cheap reachability check for /ready. */
  ping(): Promise<void>;
  /** Optional: bytes the stored data takes on disk, free space the store reuses left out (DATA_MAX_BYTES, issue 15). */
  sizeBytes?(): Promise<number>;

  // accounts and keys
  createAccount(a: Omit<Account, 'createdAt'> & { createdAt?: number }): Promise<Account>;
  getAccount(id: string): Promise<Account | null>;
  listAccounts(): Promise<Account[]>;
  countAccounts(): Promise<number>;
  updateAccount(id: string, patch: Partial<Omit<Account, 'id' | 'createdAt' | 'balanceMicros'>>): Promise<void>;
  /** Adds (or, negative, takes) an amount; returns the new balance. */
  addBalance(id: string, amountMicros: Micros): Promise<Micros>;
  addApiKey(accountId: string, keyHash: string, prefix: string, now: number): Promise<ApiKeyRow>;
  /** Returns the account and the stored hash; the caller compares in constant time. */
  findKey(keyHash: string): Promise<{ account: Account; keyHash: string; keyId: string } | null>;
  listApiKeys(accountId: string): Promise<ApiKeyRow[]>;
  revokeApiKey(keyId: string, now: number): Promise<boolean>;

  // prices
  setPrice(product: string, unitPriceMicros: Micros, accountId?: string | null): Promise<void>;
  /** Account price, else the default price, else null. */
  getPrice(product: string, accountId: string): Promise<Micros | null>;

  // requests and work items
  createRequest(r: NewRequest): Promise<void>;
  getRequest(id: string): Promise<RequestRow | null>;
  /** Newest first, created at or after `since`. */
  listRequests(accountId: string, opts: { finished: boolean; since: number; skip: number; limit: number }): Promise<RequestRow[]>;
  /** Results in query order, after query index `afterIndex` (default: from the first). */
  readResults(requestId: string, afterIndex?: number): AsyncIterable<QueryResult>;
  /** Optional: the request and the first `page` results in one round trip, for backends where a
   *  round trip is the cost of a read (PostgreSQL). */
  getRequestWithResults?(id: string, page: number): Promise<{ row: RequestRow; first: QueryResult[] } | null>;
  /** Deletes results and items of requests finished before `resultsBefore`, and whole requests
   *  created before `requestsBefore`; returns how many requests lost their results or were deleted.
   *  With `limit`, at most `limit` requests per kind in one short transaction: the janitor calls
   *  again while a call returns `limit` or more (issue 15: a 100k purge in one go blocked 5.8 s). */
  purge(resultsBefore: number, requestsBefore: number, limit?: number): Promise<number>;
  /** Merges usage lines created before `before` (the janitor passes a UTC midnight) into one line per
   *  account, UTC day, product, unit and unit price, keyed `day:YYYY-MM-DD|account|product|unit|price`
   *  and dated at the day's start: sums stay exact, the balance is untouched, and a period starting
   *  on a UTC day boundary sums the same before and after. Idempotent (merged lines are not merged
   *  again). With `limit`, at most `limit` lines in one short transaction; returns the lines merged. */
  rollupUsage(before: number, limit?: number): Promise<number>;

  /** Leases up to `max` runnable items (queued with runAfter <= now, or leased with an expired lease). */
  claimItems(owner: string, max: number, leaseMs: number, now: number, ids?: string[]): Promise<WorkItem[]>;
  heartbeat(owner: string, itemIds: string[], leaseUntil: number): Promise<void>;
  /** Bills the item only while its account's balance plus credit is above zero, checked atomically
   *  with the charge; otherwise the query fails with BALANCE_EXHAUSTED (`balanceExhausted` in the answer). */
  completeItem(o: ItemOutcome): Promise<FanIn>;
  /** Checkpoint of a running query: writes the chunk (numbered after the saved ones) and the resume
   *  state in one transaction, only while `owner` leases the item; false (nothing written) otherwise. */
  saveProgress(c: Checkpoint): Promise<boolean>;
  /** The last checkpoint of an item, or null when it has none (first attempt, or ended). */
  loadProgress(itemId: string): Promise<Progress | null>;
  /** The saved chunks of an item, in order (a buffering adapter rebuilding its records on resume). */
  readChunks(itemId: string): AsyncIterable<string>;
  /** A per-deployment secret (created on first use, the same for every process on this store). */
  secret(name: string): Promise<string>;
  /** retryAt null: the item fails for good (its query ends with no records and the error, and its
   *  checkpoint is dropped); a retry keeps the checkpoint. */
  failItem(itemId: string, owner: string, error: string, retryAt: number | null, now: number): Promise<FanIn>;
  /** Graceful shutdown: hands leased items back to the queue. */
  releaseItems(owner: string, now: number): Promise<number>;
  /** Cancels unfinished items; the request ends as Failure (decision 14). */
  cancelRequest(requestId: string, now: number): Promise<FanIn>;
  /** Number of items per state (metrics). */
  itemCounts(): Promise<Record<ItemState, number>>;
  /** Ids of queued items of running requests (used by queue backends to re-enqueue after a restart). */
  queuedItemIds(limit: number): Promise<string[]>;
  /** Optional: items a worker could claim right now (queued and due, or leased with an expired lease),
   *  with their attempt count; queue backends re-announce these (src/engine/backends/runnable.ts). */
  runnableItems?(now: number, limit: number): Promise<{ id: string; attempts: number }[]>;

  // billing
  usageForPeriod(accountId: string, start: number, end: number): Promise<UsageLine[]>;
  /** Bills a usage line that belongs to no work item (a synchronous answer, e.g. a `POST /businesses`
   *  page) in one transaction with the account's charge. Refused (false, nothing written) when the
   *  account is past due or its balance plus credit is at or below zero at that moment, so concurrent
   *  answers cannot draw it further than one answer past the limit (decisions 19, 26). A key billed
   *  already bills nothing and answers true. */
  chargeUsage(c: DirectCharge): Promise<boolean>;

  // webhooks (deliveries are created when a request with a webhook ends)
  claimDueWebhooks(now: number, max: number, leaseMs: number): Promise<WebhookDelivery[]>;
  /** statusCode 0 = connection error or timeout; nextAt null = no more attempts. */
  recordWebhookAttempt(id: string, statusCode: number, ok: boolean, nextAt: number | null, now: number): Promise<void>;
  listWebhookCalls(accountId: string, since: number, limit: number): Promise<WebhookCall[]>;

  // tasks
  createTask(t: TaskRow): Promise<void>;
  getTask(id: string): Promise<TaskRow | null>;
  getTaskByRequest(requestId: string): Promise<TaskRow | null>;
  getTaskByFileToken(token: string): Promise<TaskRow | null>;
  /** Tasks still PENDING or RUNNING whose request already ended (a crash came between the two):
   *  started workers finish them. */
  strandedTasks(limit: number): Promise<TaskRow[]>;
  updateTask(id: string, patch: Partial<Pick<TaskRow, 'status' | 'fileToken' | 'filePath' | 'results' | 'updated' | 'requestId'>>): Promise<void>;
  /** Newest first; `tag` matches a tag exactly or a substring of the service name / queries; `lastId` pages. */
  listTasks(accountId: string, opts: { tag?: string; lastId?: string; limit: number }): Promise<TaskRow[]>;
}
