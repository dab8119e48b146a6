/**
 * Monitors, the store's part behind `/monitors` (issue 29): a recurring data request, its runs (each an
 * ordinary request) and the changes each run found against what the monitor saw before. Kept apart
 * from the request store's contract like the business database: its own tables (`*_monitors.sql`),
 * its own conformance suite (./conformance.ts), reached through `monitorStoreOf(store)` (./index.ts).
 *
 * One owner per due run: a run is claimed by inserting it under the unique (monitor, due time) in the
 * same transaction that moves the monitor's next run on, and its request id is chosen then, so a
 * process that dies after the claim leaves a run another process starts with that same id, never a
 * second one.
 *
 * @example const run = await monitorStoreOf(store).claimDueRun(Date.now(), nextOf, () => newRequestId())
 */

/** The request parameter that ties a request to its monitor run (set by the scheduler, not by clients);
 *  the stores read it to make a run's `monitor.changes` subscription deliveries. */
export const MONITOR_RUN = '_monitorRun';

export interface MonitorSchedule {
  /** Seconds between runs (at least 60). */
  every_s?: number;
  /** A five-field cron expression, read in `time_zone`. */
  cron?: string;
  /** IANA time zone of `cron` (default UTC). */
  time_zone: string;
}

export interface MonitorCompare {
  /** Record fields whose values together name one record across runs (`place_id`). */
  identity: string[];
  /** Fields whose change is reported (`phone`, `rating`, ...). */
  fields: string[];
  /** `/maps/reviews`: seconds between full checks, runs that read every review of every place to see
   *  what the counts cannot show (one review removed and one added); 0 or absent: none (src/monitors/signal.ts). */
  full_check_every_s?: number;
}

export type MonitorStatus = 'active' | 'paused';

export interface MonitorRow {
  id: string;
  accountId: string;
  name: string | null;
  endpoint: string;
  queries: string[];
  /** The data request's parameters, as read and checked when the monitor was made. */
  params: Record<string, unknown>;
  schedule: MonitorSchedule;
  compare: MonitorCompare;
  webhook: string | null;
  status: MonitorStatus;
  /** Why the service paused it (its account could not pay a run); null while active or paused by the user. */
  pausedReason: string | null;
  /** Unix ms of the next due run; null while paused. */
  nextRunAt: number | null;
  lastRunAt: number | null;
  runs: number;
  /** What its runs learned of the site's view cap (RunEnd.learned), its next run's prior; not shown. */
  learned?: Record<string, unknown> | null;
  created: number;
  updated: number;
}

export type RunStatus = 'claimed' | 'running' | 'done' | 'failed';

export interface RunCounts { new: number; gone: number; changed: number; new_reviews: number; removed: number; records: number }

export interface MonitorRunRow {
  id: string;
  monitorId: string;
  accountId: string;
  /** The due time this run answers (unique per monitor). */
  dueAt: number;
  /** Chosen at the claim; the request exists once the run is `running`. */
  requestId: string;
  status: RunStatus;
  reason: string | null;
  counts: RunCounts;
  /** When the claim (or its last take-over) was made. */
  claimedAt: number;
  finishedAt: number | null;
  /** The first run only records what is there: it reports no change. */
  baseline: boolean;
}

export type ChangeKind = 'new' | 'gone' | 'changed' | 'new_reviews' | 'removed';

export interface ChangeRow {
  /** Ascending in the order changes were stored (the changes cursor). */
  seq?: number;
  monitorId: string;
  runId: string;
  at: number;
  kind: ChangeKind;
  /** The record's identity values joined by `|`. */
  identity: string;
  field: string | null;
  before: unknown;
  after: unknown;
  /** The record as the run found it (`new`), or the new reviews (`new_reviews`); `removed` names the
   *  review gone in `before` (its id), `field` being the list it was in. */
  record: unknown;
}

/** What the monitor saw of one record: the compared fields' values, and what the cheap signal needs. */
export interface SeenRecord { identity: string; values: Record<string, unknown> }

export interface RunEnd {
  status: 'done' | 'failed';
  reason: string | null;
  counts: RunCounts;
  changes: ChangeRow[];
  /** Records seen this run (upserted) and identities no longer there (removed). */
  seen: SeenRecord[];
  gone: string[];
  now: number;
  /** What the run learned of the site's view cap (src/monitors/signal.ts `runLearned`), kept on the
   *  monitor for its next run; undefined keeps what it had. */
  learned?: Record<string, unknown> | null;
}

export interface MonitorStore {
  /** With `cap`: counts the account's monitors and inserts in one transaction, serialized per account
   *  (SQLite's write lock, a PostgreSQL advisory lock), so concurrent creates never pass the cap;
   *  false (nothing written) when the account already has `cap`. */
  createMonitor(m: MonitorRow, cap?: number): Promise<boolean>;
  getMonitor(accountId: string, id: string): Promise<MonitorRow | null>;
  /** Newest first, after `lastId` (the previous page's last). */
  listMonitors(accountId: string, o: { lastId?: string; limit: number }): Promise<MonitorRow[]>;
  /** How many monitors the account has (its cap is checked without reading them). */
  countMonitors(accountId: string): Promise<number>;
  updateMonitor(accountId: string, id: string, patch: Partial<Pick<MonitorRow, 'name' | 'queries' | 'params' | 'schedule' | 'compare' | 'webhook' | 'status' | 'pausedReason' | 'nextRunAt'>>, now: number): Promise<MonitorRow | null>;
  /** Deletes finished runs that finished before `runsBefore` (a monitor's newest done run is kept) and
   *  changes made before `changesBefore`, at most `limit` of each (the janitor calls again while a
   *  call returns `limit` or more); how many rows went. */
  purgeHistory(runsBefore: number, changesBefore: number, limit: number): Promise<number>;
  /** Removes the monitor with its runs, changes and what it saw; false when there was none. */
  deleteMonitor(accountId: string, id: string): Promise<boolean>;
  /**
   * Claims one due run of an active monitor (next_run_at <= now): inserts the run (status `claimed`,
   * request id from `requestId()`) and moves the monitor's next run to `next(monitor)`, in one
   * transaction. Null when nothing is due. Two processes never claim the same due time.
   */
  claimDueRun(now: number, next: (m: MonitorRow) => number | null, requestId: () => string): Promise<{ monitor: MonitorRow; run: MonitorRunRow } | null>;
  /** Runs claimed before `before` whose start was never confirmed (the claimer died, or is late); taken
   *  over one at a time by `retakeRun`. */
  staleClaims(before: number, limit: number): Promise<MonitorRunRow[]>;
  /** Takes a stale claim over (claimed_at still `was`): true for exactly one caller. */
  retakeRun(runId: string, was: number, now: number): Promise<boolean>;
  markRunning(runId: string): Promise<void>;
  /** Runs whose request was started, oldest first. */
  runningRuns(limit: number): Promise<MonitorRunRow[]>;
  /** Ends a running run: its changes, what the monitor now has seen, the run's counts, in one
   *  transaction; false (nothing written) when it was not running (another process ended it). */
  finishRun(runId: string, end: RunEnd): Promise<boolean>;
  getRun(runId: string): Promise<MonitorRunRow | null>;
  /** Newest first. */
  listRuns(accountId: string, monitorId: string, o: { before?: number; limit: number }): Promise<MonitorRunRow[]>;
  /** What the monitor has seen, by identity. */
  seenRecords(monitorId: string): Promise<Map<string, Record<string, unknown>>>;
  /** Oldest first, after `afterSeq`; filtered by kind and time (Unix ms, inclusive). */
  listChanges(accountId: string, monitorId: string, o: { afterSeq?: number; kinds?: ChangeKind[]; from?: number; to?: number; runId?: string; limit: number }): Promise<ChangeRow[]>;
}
