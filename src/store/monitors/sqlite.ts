/**
 * Monitors on SQLite (./contract.ts). better-sqlite3 is synchronous, so a claim or a run's end is one
 * transaction with nothing else on the connection in between: two schedulers of one process, or two
 * processes on one file (SQLite's write lock), never claim the same due time.
 */
import type Database from 'better-sqlite3';
import type { ChangeKind, ChangeRow, MonitorRow, MonitorRunRow, MonitorStore, RunEnd } from './contract.ts';
import {
  DELETE_MONITOR_PARTS, DUE_MONITOR, END_MONITOR, END_RUN, HAS_DONE_RUN, INSERT_CHANGE, INSERT_MONITOR, INSERT_RUN, LIST_RUNS, MARK_RUNNING, RETAKE_RUN,
  PURGE_CHANGES, PURGE_RUNS, RUNNING_RUNS, STALE_CLAIMS, UPSERT_SEEN, changeValues, changesWhere, endMonitorValues, monitorPatch, monitorValues, newRun, runValues, toChange, toMonitor, toRun, type Row,
} from './rows.ts';

export class SqliteMonitorStore implements MonitorStore {
  constructor(private readonly db: Database.Database) {}

  async createMonitor(m: MonitorRow, cap?: number): Promise<boolean> {
    return this.db.transaction(() => {
      if (cap !== undefined && (this.db.prepare('SELECT count(*) AS n FROM monitors WHERE account_id = ?').get(m.accountId) as { n: number }).n >= cap) return false;
      this.db.prepare(INSERT_MONITOR).run(...monitorValues(m));
      return true;
    }).immediate();
  }

  async getMonitor(accountId: string, id: string): Promise<MonitorRow | null> {
    const r = this.db.prepare('SELECT * FROM monitors WHERE id = ? AND account_id = ?').get(id, accountId) as Row | undefined;
    return r ? toMonitor(r) : null;
  }

  async listMonitors(accountId: string, o: { lastId?: string; limit: number }): Promise<MonitorRow[]> {
    const rows = o.lastId
      ? this.db.prepare('SELECT * FROM monitors WHERE account_id = ? AND id < ? ORDER BY id DESC LIMIT ?').all(accountId, o.lastId, o.limit)
      : this.db.prepare('SELECT * FROM monitors WHERE account_id = ? ORDER BY id DESC LIMIT ?').all(accountId, o.limit);
    return (rows as Row[]).map(toMonitor);
  }

  async countMonitors(accountId: string): Promise<number> {
    return (this.db.prepare('SELECT count(*) AS n FROM monitors WHERE account_id = ?').get(accountId) as { n: number }).n;
  }

  async updateMonitor(accountId: string, id: string, patch: Partial<MonitorRow>, now: number): Promise<MonitorRow | null> {
    const sets = [...monitorPatch(patch), ['updated', now] as [string, unknown]];
    this.db.prepare(`UPDATE monitors SET ${sets.map(([c]) => `${c} = ?`).join(', ')} WHERE id = ? AND account_id = ?`).run(...sets.map(([, v]) => v), id, accountId);
    return this.getMonitor(accountId, id);
  }

  async purgeHistory(runsBefore: number, changesBefore: number, limit: number): Promise<number> {
    return this.db.transaction(() => this.db.prepare(PURGE_RUNS).run(runsBefore, limit).changes + this.db.prepare(PURGE_CHANGES).run(changesBefore, limit).changes).immediate();
  }

  async deleteMonitor(accountId: string, id: string): Promise<boolean> {
    return this.db.transaction(() => {
      const gone = this.db.prepare('DELETE FROM monitors WHERE id = ? AND account_id = ?').run(id, accountId).changes > 0;
      if (gone) for (const sql of DELETE_MONITOR_PARTS) this.db.prepare(sql).run(id);
      return gone;
    }).immediate();
  }

  async claimDueRun(now: number, next: (m: MonitorRow) => number | null, requestId: () => string) {
    return this.db.transaction(() => {
      const r = this.db.prepare(DUE_MONITOR).get(now) as Row | undefined;
      if (!r) return null;
      const monitor = toMonitor(r);
      const baseline = !(this.db.prepare(HAS_DONE_RUN).get(monitor.id));
      const run = newRun(monitor, now, requestId(), baseline);
      this.db.prepare(INSERT_RUN).run(...runValues(run));
      const nextRunAt = next(monitor);
      this.db.prepare('UPDATE monitors SET next_run_at = ? WHERE id = ?').run(nextRunAt, monitor.id);
      return { monitor: { ...monitor, nextRunAt }, run };
    }).immediate();
  }

  async staleClaims(before: number, limit: number): Promise<MonitorRunRow[]> {
    return (this.db.prepare(STALE_CLAIMS).all(before, limit) as Row[]).map(toRun);
  }

  async retakeRun(runId: string, was: number, now: number): Promise<boolean> {
    return this.db.prepare(RETAKE_RUN).run(now, runId, was).changes === 1;
  }

  async markRunning(runId: string): Promise<void> {
    this.db.prepare(MARK_RUNNING).run(runId);
  }

  async runningRuns(limit: number): Promise<MonitorRunRow[]> {
    return (this.db.prepare(RUNNING_RUNS).all(limit) as Row[]).map(toRun);
  }

  async finishRun(runId: string, end: RunEnd): Promise<boolean> {
    return this.db.transaction(() => {
      const run = this.db.prepare("SELECT * FROM monitor_runs WHERE id = ? AND status = 'running'").get(runId) as Row | undefined;
      if (!run) return false;
      this.db.prepare(END_RUN).run(end.status, end.reason, JSON.stringify(end.counts), end.now, runId);
      const insert = this.db.prepare(INSERT_CHANGE);
      for (const c of end.changes) insert.run(...changeValues(c));
      const upsert = this.db.prepare(UPSERT_SEEN);
      for (const s of end.seen) upsert.run(run.monitor_id, s.identity, JSON.stringify(s.values));
      const remove = this.db.prepare('DELETE FROM monitor_seen WHERE monitor_id = ? AND identity = ?');
      for (const g of end.gone) remove.run(run.monitor_id, g);
      this.db.prepare(END_MONITOR).run(...endMonitorValues(end.now, end.learned, run.monitor_id));
      return true;
    }).immediate();
  }

  async getRun(runId: string): Promise<MonitorRunRow | null> {
    const r = this.db.prepare('SELECT * FROM monitor_runs WHERE id = ?').get(runId) as Row | undefined;
    return r ? toRun(r) : null;
  }

  async listRuns(accountId: string, monitorId: string, o: { before?: number; limit: number }): Promise<MonitorRunRow[]> {
    return (this.db.prepare(LIST_RUNS).all(monitorId, accountId, o.before ?? Number.MAX_SAFE_INTEGER, o.limit) as Row[]).map(toRun);
  }

  async seenRecords(monitorId: string): Promise<Map<string, Record<string, unknown>>> {
    const rows = this.db.prepare('SELECT identity, vals FROM monitor_seen WHERE monitor_id = ?').all(monitorId) as Row[];
    return new Map(rows.map((r) => [r.identity as string, JSON.parse(r.vals)]));
  }

  async listChanges(accountId: string, monitorId: string, o: { afterSeq?: number; kinds?: ChangeKind[]; from?: number; to?: number; runId?: string; limit: number }): Promise<ChangeRow[]> {
    const [sql, args] = changesWhere(accountId, monitorId, o);
    return (this.db.prepare(sql).all(...args, o.limit) as Row[]).map(toChange);
  }
}
