/**
 * Monitors on PostgreSQL (./contract.ts). A claim locks the due monitor row (`FOR UPDATE SKIP LOCKED`):
 * schedulers in several processes each take a different due monitor, and the unique (monitor, due
 * time) of monitor_runs stands behind it.
 */
import type { Client, PgDb } from '../postgres/handle.ts';
import type { ChangeKind, ChangeRow, MonitorRow, MonitorRunRow, MonitorStore, RunEnd } from './contract.ts';
import {
  DELETE_MONITOR_PARTS, DUE_MONITOR, END_MONITOR, END_RUN, HAS_DONE_RUN, INSERT_CHANGE, INSERT_MONITOR, INSERT_RUN, LIST_RUNS, MARK_RUNNING, RETAKE_RUN,
  PURGE_CHANGES, PURGE_RUNS, RUNNING_RUNS, STALE_CLAIMS, UPSERT_SEEN, changeValues, changesWhere, endMonitorValues, monitorPatch, monitorValues, newRun, pgText, runValues, toChange, toMonitor, toRun, type Row,
} from './rows.ts';


export class PostgresMonitorStore implements MonitorStore {
  constructor(private readonly h: PgDb) {}

  /** One statement through the store's handle (prepared by name; an outage is StoreUnavailableError). */
  private q(sql: string, args: unknown[] = [], c?: Client) {
    return this.h.exec(pgText(sql), args, c);
  }

  async createMonitor(m: MonitorRow, cap?: number): Promise<boolean> {
    if (cap === undefined) {
      await this.q(INSERT_MONITOR, monitorValues(m));
      return true;
    }
    // The count and the insert under one lock per account (held to the commit): a count alone under
    // READ COMMITTED let 50 concurrent creates at the cap reach 201-225 (issue 39).
    return this.h.tx(async (c) => {
      await this.q('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`trawl.monitors:${m.accountId}`], c);
      const n = Number((await this.q('SELECT count(*) AS n FROM monitors WHERE account_id = ?', [m.accountId], c)).rows[0].n);
      if (n >= cap) return false;
      await this.q(INSERT_MONITOR, monitorValues(m), c);
      return true;
    });
  }

  async getMonitor(accountId: string, id: string): Promise<MonitorRow | null> {
    const r = (await this.q('SELECT * FROM monitors WHERE id = ? AND account_id = ?', [id, accountId])).rows[0];
    return r ? toMonitor(r) : null;
  }

  async listMonitors(accountId: string, o: { lastId?: string; limit: number }): Promise<MonitorRow[]> {
    const r = o.lastId
      ? await this.q('SELECT * FROM monitors WHERE account_id = ? AND id < ? ORDER BY id DESC LIMIT ?', [accountId, o.lastId, o.limit])
      : await this.q('SELECT * FROM monitors WHERE account_id = ? ORDER BY id DESC LIMIT ?', [accountId, o.limit]);
    return r.rows.map(toMonitor);
  }

  async countMonitors(accountId: string): Promise<number> {
    return Number((await this.q('SELECT count(*) AS n FROM monitors WHERE account_id = ?', [accountId])).rows[0].n);
  }

  async updateMonitor(accountId: string, id: string, patch: Partial<MonitorRow>, now: number): Promise<MonitorRow | null> {
    const sets = [...monitorPatch(patch), ['updated', now] as [string, unknown]];
    await this.q(`UPDATE monitors SET ${sets.map(([c]) => `${c} = ?`).join(', ')} WHERE id = ? AND account_id = ?`, [...sets.map(([, v]) => v), id, accountId]);
    return this.getMonitor(accountId, id);
  }

  async purgeHistory(runsBefore: number, changesBefore: number, limit: number): Promise<number> {
    const runs = (await this.q(PURGE_RUNS, [runsBefore, limit])).rowCount ?? 0;
    return runs + ((await this.q(PURGE_CHANGES, [changesBefore, limit])).rowCount ?? 0);
  }

  async deleteMonitor(accountId: string, id: string): Promise<boolean> {
    return this.h.tx(async (c) => {
      const gone = ((await this.q('DELETE FROM monitors WHERE id = ? AND account_id = ?', [id, accountId], c)).rowCount ?? 0) > 0;
      if (gone) for (const sql of DELETE_MONITOR_PARTS) await this.q(sql, [id], c);
      return gone;
    });
  }

  async claimDueRun(now: number, next: (m: MonitorRow) => number | null, requestId: () => string) {
    return this.h.tx(async (c) => {
      const r = (await this.q(`${DUE_MONITOR} FOR UPDATE SKIP LOCKED`, [now], c)).rows[0];
      if (!r) return null;
      const monitor = toMonitor(r);
      const baseline = !(await this.q(HAS_DONE_RUN, [monitor.id], c)).rows.length;
      const run = newRun(monitor, now, requestId(), baseline);
      await this.q(INSERT_RUN, runValues(run), c);
      const nextRunAt = next(monitor);
      await this.q('UPDATE monitors SET next_run_at = ? WHERE id = ?', [nextRunAt, monitor.id], c);
      return { monitor: { ...monitor, nextRunAt }, run };
    });
  }

  async staleClaims(before: number, limit: number): Promise<MonitorRunRow[]> {
    return (await this.q(STALE_CLAIMS, [before, limit])).rows.map(toRun);
  }

  async retakeRun(runId: string, was: number, now: number): Promise<boolean> {
    return (await this.q(RETAKE_RUN, [now, runId, was])).rowCount === 1;
  }

  async markRunning(runId: string): Promise<void> {
    await this.q(MARK_RUNNING, [runId]);
  }

  async runningRuns(limit: number): Promise<MonitorRunRow[]> {
    return (await this.q(RUNNING_RUNS, [limit])).rows.map(toRun);
  }

  async finishRun(runId: string, end: RunEnd): Promise<boolean> {
    return this.h.tx(async (c) => {
      const run = (await this.q("SELECT * FROM monitor_runs WHERE id = ? AND status = 'running' FOR UPDATE", [runId], c)).rows[0];
      if (!run) return false;
      await this.q(END_RUN, [end.status, end.reason, JSON.stringify(end.counts), end.now, runId], c);
      for (const ch of end.changes) await this.q(INSERT_CHANGE, changeValues(ch), c);
      for (const s of end.seen) await this.q(UPSERT_SEEN, [run.monitor_id, s.identity, JSON.stringify(s.values)], c);
      if (end.gone.length) await this.q('DELETE FROM monitor_seen WHERE monitor_id = ? AND identity = ANY(?)', [run.monitor_id, end.gone], c);
      await this.q(END_MONITOR, endMonitorValues(end.now, end.learned, run.monitor_id), c);
      return true;
    });
  }

  async getRun(runId: string): Promise<MonitorRunRow | null> {
    const r = (await this.q('SELECT * FROM monitor_runs WHERE id = ?', [runId])).rows[0];
    return r ? toRun(r) : null;
  }

  async listRuns(accountId: string, monitorId: string, o: { before?: number; limit: number }): Promise<MonitorRunRow[]> {
    return (await this.q(LIST_RUNS, [monitorId, accountId, o.before ?? Number.MAX_SAFE_INTEGER, o.limit])).rows.map(toRun);
  }

  async seenRecords(monitorId: string): Promise<Map<string, Record<string, unknown>>> {
    const rows = (await this.q('SELECT identity, vals FROM monitor_seen WHERE monitor_id = ?', [monitorId])).rows;
    return new Map(rows.map((r) => [r.identity as string, JSON.parse(r.vals)]));
  }

  async listChanges(accountId: string, monitorId: string, o: { afterSeq?: number; kinds?: ChangeKind[]; from?: number; to?: number; runId?: string; limit: number }): Promise<ChangeRow[]> {
    const [sql, args] = changesWhere(accountId, monitorId, o);
    return (await this.q(sql, [...args, o.limit])).rows.map(toChange);
  }
}
