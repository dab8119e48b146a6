/**
 * The business database on PostgreSQL: the same tables and WHERE clause as SQLite
 * (003_businesses.sql); points through a built-in GiST index on `point(longitude, latitude)`, names by
 * LIKE on the lower-cased key (a trigram index is future work: pg_trgm lives in one schema of a
 * database, which per-schema deployments and test schemas do not see).
 */
import type pg from 'pg';
import type { BusinessPage, BusinessQuery, BusinessRecord, BusinessStore } from './contract.ts';
import { COLUMNS, columnsOf, recordOf, typeKeys, whereOf, type Dialect } from './row.ts';

const dialect: Dialect = {
  nameLike: () => "b.name_k LIKE ? ESCAPE '\\'",
  inBox: () => 'point(b.longitude, b.latitude) <@ box(point(?::float8, ?::float8), point(?::float8, ?::float8))',
};

/** `?` placeholders to `$n`. The builder never puts a `?` inside a literal. */
const numbered = (sql: string) => { let n = 0; return sql.replace(/\?/g, () => `$${++n}`); };

export class PostgresBusinessStore implements BusinessStore {
  constructor(private readonly pool: pg.Pool) {}

  async upsertBusinesses(owner: string, records: BusinessRecord[], now: number) {
    const c = await this.pool.connect();
    let added = 0;
    let updated = 0;
    try {
      await c.query('BEGIN');
      for (const r of records) {
        const cols = columnsOf(r);
        const { rows } = await c.query(numbered(`INSERT INTO businesses (owner, os_id, record, ${COLUMNS.join(', ')}, added, updated)
          VALUES (?, ?, ?, ${COLUMNS.map(() => '?').join(', ')}, ?, ?)
          ON CONFLICT (owner, os_id) DO UPDATE SET record = EXCLUDED.record, ${COLUMNS.map((k) => `${k} = EXCLUDED.${k}`).join(', ')}, updated = EXCLUDED.updated
          RETURNING id, (xmax = 0) AS inserted`), [owner, r.os_id, JSON.stringify(r), ...cols, now, now]);
        const id = rows[0].id;
        if (rows[0].inserted) added++; else updated++;
        await c.query('DELETE FROM business_types WHERE business = $1', [id]);
        const types = typeKeys(r);
        if (types.length) await c.query('INSERT INTO business_types (business, type_k) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING', [id, types]);
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

  async searchBusinesses(q: BusinessQuery): Promise<BusinessPage> {
    const w = whereOf(q, dialect);
    const after = q.after !== undefined ? ' AND b.os_id > ?' : '';
    const { rows } = await this.pool.query(numbered(`SELECT b.record, b.added, b.updated FROM businesses b WHERE ${w.sql}${after} ORDER BY b.os_id LIMIT ?`),
      [...w.args, ...(q.after !== undefined ? [q.after] : []), q.limit + 1]);
    const page: BusinessPage = { items: rows.slice(0, q.limit).map(recordOf), hasMore: rows.length > q.limit };
    if (q.includeTotal) page.total = Number((await this.pool.query(numbered(`SELECT count(*) AS n FROM businesses b WHERE ${w.sql}`), w.args)).rows[0].n);
    return page;
  }
}
