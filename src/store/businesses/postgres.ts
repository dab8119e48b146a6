/**
 * The business database on PostgreSQL: the same tables and WHERE clause as SQLite
 * (003/004_businesses*.sql); points through a built-in GiST index on `point(longitude, latitude)`, names
 * by LIKE on the lower-cased key, served by a pg_trgm index where the extension could be created.
 * Pages are keyset by id; the planner walks an (equality, id) index in page order.
 */
import type pg from 'pg';
import { encodeRecord } from './record-text.ts';
import type { BusinessPage, BusinessQuery, BusinessRecord, BusinessStore } from './contract.ts';
import { COLUMNS, columnsOf, positionOf, recordOf, timesOf, typeKeys, uniqueByOsId, whereOf, type Dialect } from './row.ts';

const dialect: Dialect = {
  nameLike: () => "b.name_k LIKE ? ESCAPE '\\'",
  inBox: () => 'point(b.longitude, b.latitude) <@ box(point(?::float8, ?::float8), point(?::float8, ?::float8))',
};

/** `?` placeholders to `$n`. The builder never puts a `?` inside a literal. */
const numbered = (sql: string) => { let n = 0; return sql.replace(/\?/g, () => `$${++n}`); };

/** Rows per statement: 22 parameters a row stays well under PostgreSQL's 65,535. */
const BATCH = 1000;
const ROW_PARAMS = 3 + COLUMNS.length + 2;

export class PostgresBusinessStore implements BusinessStore {
  constructor(private readonly pool: pg.Pool) {}

  /** One transaction; per batch one multi-row upsert, one delete and one insert of the types. */
  async upsertBusinesses(owner: string, records: BusinessRecord[], now: number) {
    const unique = uniqueByOsId(records);
    const c = await this.pool.connect();
    let added = 0;
    let updated = 0;
    try {
      await c.query('BEGIN');
      for (let at = 0; at < unique.length; at += BATCH) {
        const batch = unique.slice(at, at + BATCH);
        const values = batch.map((_, i) => `(${Array.from({ length: ROW_PARAMS }, (_, k) => `$${i * ROW_PARAMS + k + 1}`).join(', ')})`).join(', ');
        const { rows } = await c.query(`INSERT INTO businesses (owner, os_id, record, ${COLUMNS.join(', ')}, added, updated) VALUES ${values}
          ON CONFLICT (owner, os_id) DO UPDATE SET record = EXCLUDED.record, ${COLUMNS.map((k) => `${k} = EXCLUDED.${k}`).join(', ')}, updated = EXCLUDED.updated
          RETURNING id, os_id, (xmax = 0) AS inserted`, batch.flatMap((r) => { const t = timesOf(r, now); return [owner, r.os_id, encodeRecord(r), ...columnsOf(r), t.added, t.updated]; }));
        const idOf = new Map<string, string>();
        for (const row of rows) { idOf.set(row.os_id, row.id); if (row.inserted) added++; else updated++; }
        const ids = [...idOf.values()];
        if (rows.some((r) => !r.inserted)) await c.query('DELETE FROM business_types WHERE business = ANY($1::bigint[])', [ids]);
        const owners: string[] = [];
        const types: string[] = [];
        for (const r of batch) for (const t of typeKeys(r)) { owners.push(idOf.get(r.os_id)!); types.push(t); }
        if (types.length) {
          await c.query('INSERT INTO business_types (business, type_k) SELECT * FROM unnest($1::bigint[], $2::text[]) ON CONFLICT DO NOTHING', [owners, types]);
        }
      }
      await c.query('COMMIT');
    } catch (e) {
      await c.query('ROLLBACK').catch(() => {});
      throw e;
    } finally {
      c.release();
    }
    return { added, updated };
  }

  async optimize() {
    await this.pool.query('ANALYZE businesses, business_types');
  }

  async searchBusinesses(q: BusinessQuery): Promise<BusinessPage> {
    const w = whereOf(q, dialect);
    const after = q.after !== undefined ? ' AND b.id > ?' : '';
    const { rows } = await this.pool.query(numbered(`SELECT b.id, b.record, b.added, b.updated FROM businesses b WHERE ${w.sql}${after} ORDER BY b.id LIMIT ?`),
      [...w.args, ...(q.after !== undefined ? [positionOf(q.after)] : []), q.limit + 1]);
    const shown = rows.slice(0, q.limit);
    const page: BusinessPage = { items: shown.map(recordOf), hasMore: rows.length > q.limit, last: shown.length ? String(shown.at(-1).id) : undefined };
    if (q.includeTotal) page.total = Number((await this.pool.query(numbered(`SELECT count(*) AS n FROM businesses b WHERE ${w.sql}`), w.args)).rows[0].n);
    return page;
  }
}
