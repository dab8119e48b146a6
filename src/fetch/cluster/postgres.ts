/**
 * The cluster store in PostgreSQL, for a cluster whose queue is PostgreSQL and that has no Redis
 * (tables of migration 080, in the store's schema). Each operation is one statement on the server's
 * clock (`statement_timestamp()`, one value for the whole statement); a lease locks its key's row for
 * that statement only, so two processes never reserve the same start.
 *
 * Its own small pool (two connections): the store's pool may be busy with completions. Its connect
 * and query timeouts are the link's (STORE_TIMEOUT_MS, 5 s; ./link.ts), which decides when the store
 * is out and this process paces alone: they were 1 s, and on a loaded box a connection that took
 * longer to open (TCP, authentication, a pool slot waited for) failed a call that would have
 * answered, and the process paced alone at 1/N for nothing. A server that is down refuses at once
 * whatever the timeout; a pool call that outlives it ends with pg's error (the link logs it once).
 *
 * The feed reads versions from a sequence; a writer that took a version before a reader's read can
 * commit after it, so each read goes back 100 versions behind its cursor (entries may come twice,
 * which the feed allows).
 */
import pg from 'pg';
import type { ClusterStore, SharedEntry, SlotLease } from './store.ts';
import { STORE_TIMEOUT_MS } from './link.ts';

const NOW = `(extract(epoch from statement_timestamp()) * 1000)`;
const BACK = 100;

export class PostgresClusterStore implements ClusterStore {
  readonly kind = 'postgres' as const;
  private readonly pool: pg.Pool;
  private beats = 0;

  /** `config`: the store's `clientConfig()` (same database and schema); `timeoutMs`: the longest a
   *  connection may take to open (or a pool slot to free) and a statement to answer. */
  constructor(config: pg.ClientConfig, timeoutMs = STORE_TIMEOUT_MS) {
    this.pool = new pg.Pool({ ...config, max: 2, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs, idleTimeoutMillis: 30_000 } as pg.PoolConfig);
    this.pool.on('error', () => undefined); // a dropped idle connection: the next call reports it
  }

  async lease(key: string, count: number, gapMs: number): Promise<SlotLease> {
    const r = await this.pool.query({
      name: 'cluster_lease',
      text: `INSERT INTO cluster_pace AS p (key, next_at, paused_until) VALUES ($1, ${NOW} + $2::float8 * $3::float8, 0)
             ON CONFLICT (key) DO UPDATE SET next_at = GREATEST(${NOW}, p.next_at, p.paused_until) + $2::float8 * $3::float8
             RETURNING next_at - $2::float8 * $3::float8 - ${NOW} AS first_in, GREATEST(paused_until - ${NOW}, 0) AS paused_for`,
      values: [key, count, gapMs],
    });
    const row = r.rows[0] as { first_in: number; paused_for: number };
    return { firstInMs: Number(row.first_in), gapMs, count, pausedForMs: Number(row.paused_for) };
  }

  async pause(key: string, pauseMs: number): Promise<void> {
    await this.pool.query({
      name: 'cluster_pause',
      text: `INSERT INTO cluster_pace AS p (key, next_at, paused_until) VALUES ($1, 0, ${NOW} + $2::float8)
             ON CONFLICT (key) DO UPDATE SET paused_until = GREATEST(p.paused_until, ${NOW} + $2::float8)`,
      values: [key, Math.max(0, pauseMs)],
    });
  }

  async put(ns: string, key: string, value: string, ttlMs: number): Promise<void> {
    await this.pool.query({
      name: 'cluster_put',
      text: `INSERT INTO cluster_state AS s (ns, key, value, expires_at, version) VALUES ($1, $2, $3, ${NOW} + $4::float8, nextval('cluster_state_version'))
             ON CONFLICT (ns, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at, version = excluded.version`,
      values: [ns, key, value, ttlMs],
    });
  }

  async changes(cursor: string | undefined): Promise<{ cursor: string; entries: SharedEntry[] }> {
    const since = cursor === undefined ? -1 : Math.max(-1, Number(cursor) - BACK);
    const r = await this.pool.query({
      name: 'cluster_changes',
      text: `SELECT ns, key, value, expires_at - ${NOW} AS left_ms, version FROM cluster_state
             WHERE version > $1 AND expires_at > ${NOW} ORDER BY version LIMIT 5000`,
      values: [since],
    });
    let top = cursor === undefined ? 0 : Number(cursor);
    const entries = r.rows.map((row: { ns: string; key: string; value: string; left_ms: number; version: string }) => {
      top = Math.max(top, Number(row.version));
      return { ns: row.ns, key: row.key, value: row.value, expiresInMs: Number(row.left_ms) };
    });
    return { cursor: String(top), entries };
  }

  async heartbeat(id: string, ttlMs: number): Promise<number> {
    // Now and then, the rows nobody needs any more (idle keys, expired states) go.
    if (++this.beats % 60 === 1) {
      await this.pool.query(`DELETE FROM cluster_state WHERE expires_at < ${NOW} - 60000`);
      await this.pool.query(`DELETE FROM cluster_pace WHERE next_at < ${NOW} - 600000 AND paused_until < ${NOW}`);
    }
    const r = await this.pool.query({
      name: 'cluster_heartbeat',
      text: `WITH up AS (INSERT INTO cluster_members (id, seen_until) VALUES ($1, ${NOW} + $2::float8)
                          ON CONFLICT (id) DO UPDATE SET seen_until = excluded.seen_until RETURNING id),
                  gone AS (DELETE FROM cluster_members WHERE seen_until <= ${NOW} AND id <> $1)
             SELECT 1 + (SELECT count(*) FROM cluster_members WHERE seen_until > ${NOW} AND id <> $1)::int AS n`,
      values: [id, ttlMs],
    });
    return Number((r.rows[0] as { n: number }).n);
  }

  async leave(id: string): Promise<void> {
    await this.pool.query('DELETE FROM cluster_members WHERE id = $1', [id]);
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}
