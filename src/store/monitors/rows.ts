/**
 * Monitor rows as both stores keep them: JSON values as text, times as integers. The SQL both stores
 * run is written here once with `?` placeholders; PostgreSQL's store numbers them (`pgText`).
 */
import type { ChangeRow, MonitorRow, MonitorRunRow } from './contract.ts';

export type Row = Record<string, any>;

const json = (v: unknown) => (v === undefined ? null : JSON.stringify(v));
const parse = (v: unknown) => (v == null ? null : JSON.parse(String(v)));
const num = (v: unknown) => (v == null ? null : Number(v));

export const MONITOR_COLUMNS = ['id', 'account_id', 'name', 'endpoint', 'queries', 'params', 'schedule', 'compare', 'webhook', 'status',
  'paused_reason', 'next_run_at', 'last_run_at', 'runs', 'created', 'updated'] as const;

export function monitorValues(m: MonitorRow): unknown[] {
  return [m.id, m.accountId, m.name, m.endpoint, json(m.queries), json(m.params), json(m.schedule), json(m.compare), m.webhook, m.status,
    m.pausedReason, m.nextRunAt, m.lastRunAt, m.runs, m.created, m.updated];
}

export function toMonitor(r: Row): MonitorRow {
  return {
    id: r.id, accountId: r.account_id, name: r.name ?? null, endpoint: r.endpoint, queries: parse(r.queries), params: parse(r.params),
    schedule: parse(r.schedule), compare: parse(r.compare), webhook: r.webhook ?? null, status: r.status, pausedReason: r.paused_reason ?? null, nextRunAt: num(r.next_run_at),
    lastRunAt: num(r.last_run_at), runs: Number(r.runs), created: Number(r.created), updated: Number(r.updated), learned: parse(r.learned),
  };
}

/** A run's end on its monitor: the time, the count, and what it learned (kept when it learned nothing). */
export const END_MONITOR = 'UPDATE monitors SET last_run_at = ?, runs = runs + 1, learned = COALESCE(?, learned) WHERE id = ?';
export const endMonitorValues = (now: number, learned: Record<string, unknown> | null | undefined, id: string): unknown[] => [now, json(learned ?? undefined), id];

/** Patch keys as columns, JSON ones encoded. */
export function monitorPatch(patch: Partial<MonitorRow>): [string, unknown][] {
  const col: Record<string, [string, boolean]> = {
    name: ['name', false], queries: ['queries', true], params: ['params', true], schedule: ['schedule', true], compare: ['compare', true],
    webhook: ['webhook', false], status: ['status', false], pausedReason: ['paused_reason', false], nextRunAt: ['next_run_at', false],
  };
  return Object.entries(patch).filter(([k, v]) => v !== undefined && col[k]).map(([k, v]) => [col[k][0], col[k][1] ? json(v) : v]);
}

export const RUN_COLUMNS = ['id', 'monitor_id', 'account_id', 'due_at', 'request_id', 'status', 'reason', 'counts', 'claimed_at', 'finished_at', 'baseline'] as const;

export function runValues(r: MonitorRunRow): unknown[] {
  return [r.id, r.monitorId, r.accountId, r.dueAt, r.requestId, r.status, r.reason, json(r.counts), r.claimedAt, r.finishedAt, r.baseline ? 1 : 0];
}

export function toRun(r: Row): MonitorRunRow {
  return {
    id: r.id, monitorId: r.monitor_id, accountId: r.account_id, dueAt: Number(r.due_at), requestId: r.request_id, status: r.status,
    reason: r.reason ?? null, counts: parse(r.counts), claimedAt: Number(r.claimed_at), finishedAt: num(r.finished_at), baseline: !!Number(r.baseline),
  };
}

export const CHANGE_COLUMNS = ['monitor_id', 'run_id', 'at', 'kind', 'identity', 'field', 'before', 'after', 'record'] as const;

export function changeValues(c: ChangeRow): unknown[] {
  return [c.monitorId, c.runId, c.at, c.kind, c.identity, c.field, json(c.before), json(c.after), json(c.record)];
}

export function toChange(r: Row): ChangeRow {
  return {
    seq: Number(r.seq), monitorId: r.monitor_id, runId: r.run_id, at: Number(r.at), kind: r.kind, identity: r.identity, field: r.field ?? null,
    before: parse(r.before), after: parse(r.after), record: parse(r.record),
  };
}

const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');
export const INSERT_MONITOR = `INSERT INTO monitors (${MONITOR_COLUMNS.join(', ')}) VALUES (${marks(MONITOR_COLUMNS.length)})`;
export const INSERT_RUN = `INSERT INTO monitor_runs (${RUN_COLUMNS.join(', ')}) VALUES (${marks(RUN_COLUMNS.length)})`;
export const INSERT_CHANGE = `INSERT INTO monitor_changes (${CHANGE_COLUMNS.join(', ')}) VALUES (${marks(CHANGE_COLUMNS.length)})`;
/** A due, active monitor with no run still in progress: a run due while the last one runs starts after
 *  it ends (late, not skipped, never two at once, so each run compares with the one before). */
export const DUE_MONITOR = `SELECT * FROM monitors WHERE status = 'active' AND next_run_at IS NOT NULL AND next_run_at <= ?
  AND NOT EXISTS (SELECT 1 FROM monitor_runs r WHERE r.monitor_id = monitors.id AND r.status IN ('claimed', 'running'))
  ORDER BY next_run_at LIMIT 1`;

/** The run a claim inserts. */
export function newRun(m: MonitorRow, now: number, requestId: string, baseline: boolean): MonitorRunRow {
  const dueAt = m.nextRunAt ?? now;
  return {
    id: `${m.id}-${dueAt.toString(36)}`, monitorId: m.id, accountId: m.accountId, dueAt, requestId, status: 'claimed', reason: null,
    counts: { new: 0, gone: 0, changed: 0, new_reviews: 0, removed: 0, records: 0 }, claimedAt: now, finishedAt: null, baseline,
  };
}

export const HAS_DONE_RUN = "SELECT 1 AS x FROM monitor_runs WHERE monitor_id = ? AND status = 'done' LIMIT 1";
export const UPSERT_SEEN = 'INSERT INTO monitor_seen (monitor_id, identity, vals) VALUES (?, ?, ?) ON CONFLICT (monitor_id, identity) DO UPDATE SET vals = excluded.vals';
export const END_RUN = 'UPDATE monitor_runs SET status = ?, reason = ?, counts = ?, finished_at = ? WHERE id = ?';
export const RETAKE_RUN = "UPDATE monitor_runs SET claimed_at = ? WHERE id = ? AND status = 'claimed' AND claimed_at = ?";
export const MARK_RUNNING = "UPDATE monitor_runs SET status = 'running' WHERE id = ? AND status = 'claimed'";
export const LIST_RUNS = 'SELECT * FROM monitor_runs WHERE monitor_id = ? AND account_id = ? AND due_at < ? ORDER BY due_at DESC LIMIT ?';
export const STALE_CLAIMS = "SELECT * FROM monitor_runs WHERE status = 'claimed' AND claimed_at < ? ORDER BY claimed_at LIMIT ?";
export const RUNNING_RUNS = "SELECT * FROM monitor_runs WHERE status = 'running' ORDER BY claimed_at LIMIT ?";

/** Filters of a changes page, as SQL and arguments. */
export function changesWhere(accountId: string, monitorId: string, o: { afterSeq?: number; kinds?: string[]; from?: number; to?: number; runId?: string }): [string, unknown[]] {
  const where = ['c.monitor_id = ?', 'm.account_id = ?'];
  const args: unknown[] = [monitorId, accountId];
  if (o.afterSeq !== undefined) { where.push('c.seq > ?'); args.push(o.afterSeq); }
  if (o.kinds?.length) { where.push(`c.kind IN (${marks(o.kinds.length)})`); args.push(...o.kinds); }
  if (o.runId !== undefined) { where.push('c.run_id = ?'); args.push(o.runId); }
  if (o.from !== undefined) { where.push('c.at >= ?'); args.push(o.from); }
  if (o.to !== undefined) { where.push('c.at <= ?'); args.push(o.to); }
  return [`SELECT c.* FROM monitor_changes c JOIN monitors m ON m.id = c.monitor_id WHERE ${where.join(' AND ')} ORDER BY c.seq LIMIT ?`, args];
}

/** `?` placeholders as PostgreSQL's `$1, $2, ...` (no `?` appears in these statements' text otherwise). */
export function pgText(sql: string): string {
  let i = 0;
  return sql.replace(/\?/g, () => `$${++i}`);
}

export const DELETE_MONITOR_PARTS = ['DELETE FROM monitor_changes WHERE monitor_id = ?', 'DELETE FROM monitor_seen WHERE monitor_id = ?', 'DELETE FROM monitor_runs WHERE monitor_id = ?'];

/** Finished runs past their retention, oldest first, at most `?` of them; a monitor's newest done run
 *  is kept whatever its age (it tells the next run that it is no baseline: HAS_DONE_RUN). */
export const PURGE_RUNS = `DELETE FROM monitor_runs WHERE id IN (
  SELECT r.id FROM monitor_runs r WHERE r.finished_at IS NOT NULL AND r.finished_at < ?
    AND (r.status <> 'done' OR EXISTS (SELECT 1 FROM monitor_runs n WHERE n.monitor_id = r.monitor_id AND n.status = 'done' AND n.due_at > r.due_at))
  ORDER BY r.finished_at LIMIT ?)`;
/** Changes past their retention, oldest first, at most `?` of them. */
export const PURGE_CHANGES = 'DELETE FROM monitor_changes WHERE seq IN (SELECT seq FROM monitor_changes WHERE at < ? ORDER BY at LIMIT ?)';
