/**
 * The business database on PostgreSQL: the same tables and WHERE clause as SQLite
 * (003/004/005/009_business*.sql); points through a built-in GiST index on `point(longitude, latitude)`,
 * names by LIKE on the lower-cased key, served by a pg_trgm index where the extension could be created.
 * Pages are keyset by id and walk their driver (./driver.ts) in page order: a geo or type page its
 * candidates from a subquery kept whole, the rest `businesses` itself (pageOf); every page but a name
 * search is planned once per connection (valueFreePlan). The record text lives in its own table, read
 * for a page's rows.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { encodeRecord } from './record-text.ts';
import type { BusinessPage, BusinessQuery, BusinessRecord, BusinessStore } from './contract.ts';
import { COLUMNS, boxOf, sameSecond, columnsOf, knownTotal, positionOf, recordOf, timesOf, typeFactsOf, typeKeys, uniqueByOsId, UNSHADOWED, whereOf, type Dialect } from './row.ts';
import { DRIVER_INDEX, driverOf, type Driver } from './driver.ts';

const dialect: Dialect = {
  nameLike: () => "b.name_k LIKE ? ESCAPE '\\'",
  inBox: () => 'point(b.longitude, b.latitude) <@ box(point(?::float8, ?::float8), point(?::float8, ?::float8))',
  typeFacts: true,
};

const COUNTRY = COLUMNS.indexOf('country_code');
const RATING = COLUMNS.indexOf('rating');

/** `?` placeholders to `$n`. The builder never puts a `?` inside a literal. */
const numbered = (sql: string) => { let n = 0; return sql.replace(/\?/g, () => `$${++n}`); };

/** Rows per statement: 23 parameters a row stays well under PostgreSQL's 65,535. */
const BATCH = 1000;
const ROW_PARAMS = 2 + COLUMNS.length + 2;

export class PostgresBusinessStore implements BusinessStore {
  /** `generic`: the store's generically planning connections (PgDb.genericPool, genericQuery), made
   *  when a search first needs them. */
  constructor(private readonly pool: pg.Pool, private readonly generic: GenericPlans = { genericPool: pool, genericQuery: (c) => pool.query(c) }) {}

  /**
   * Per batch a touch of the unchanged places, then for the rest one multi-row upsert of the rows, one
   * of their records, and the types rewritten; in one transaction, but for a first batch's touch: a
   * capture of places found as they were (a re-scrape, the usual case) is that one statement alone,
   * one round trip instead of three (issue 37), and it commits apart from the rest when some changed
   * (it only moves the unchanged places' `updated` time).
   */
  async upsertBusinesses(owner: string, records: BusinessRecord[], now: number) {
    const unique = uniqueByOsId(records);
    let added = 0;
    let updated = 0;
    if (!unique.length) return { added, updated };
    const firstTexts = unique.slice(0, BATCH).map(encodeRecord);
    const firstTouched = await this.touch(this.pool, owner, unique.slice(0, BATCH), firstTexts, now);
    if (unique.length <= BATCH && firstTouched.rows.length === unique.length) return { added, updated: unique.length };
    const c = await this.pool.connect();
    try {
      await c.query('BEGIN');
      for (let at = 0; at < unique.length; at += BATCH) {
        let batch = unique.slice(at, at + BATCH);
        let texts = at === 0 ? firstTexts : batch.map(encodeRecord);
        const touched = at === 0 ? firstTouched : await this.touch(c, owner, batch, texts, now);
        if (touched.rows.length) {
          updated += touched.rows.length;
          const same = new Set(touched.rows.map((r) => r.os_id as string));
          texts = texts.filter((_, i) => !same.has(batch[i].os_id));
          batch = batch.filter((r) => !same.has(r.os_id));
          if (!batch.length) continue;
        }
        const cols = batch.map(columnsOf);
        const values = batch.map((_, i) => `(${Array.from({ length: ROW_PARAMS }, (_, k) => `$${i * ROW_PARAMS + k + 1}`).join(', ')})`).join(', ');
        const { rows } = await c.query(`INSERT INTO businesses (owner, os_id, ${COLUMNS.join(', ')}, added, updated) VALUES ${values}
          ON CONFLICT (owner, os_id) DO UPDATE SET ${COLUMNS.map((k) => `${k} = EXCLUDED.${k}`).join(', ')}, updated = EXCLUDED.updated
          RETURNING id, os_id, (xmax = 0) AS inserted`, batch.flatMap((r, i) => { const t = timesOf(r, now); return [owner, r.os_id, ...cols[i], t.added, t.updated]; }));
        const idOf = new Map<string, string>();
        for (const row of rows) { idOf.set(row.os_id, row.id); if (row.inserted) added++; else updated++; }
        const ids = batch.map((r) => idOf.get(r.os_id)!);
        await c.query(`INSERT INTO business_records (id, record) SELECT * FROM unnest($1::bigint[], $2::text[])
          ON CONFLICT (id) DO UPDATE SET record = EXCLUDED.record`, [ids, texts]);
        if (rows.some((r) => !r.inserted)) await c.query('DELETE FROM business_types WHERE business = ANY($1::bigint[])', [ids]);
        // Each type row carries its business's country and rating (012_business_type_facts.sql); a
        // changed row's types are rewritten above, an unchanged one's (touched) still hold them.
        const owners: string[] = [];
        const types: string[] = [];
        const countries: unknown[] = [];
        const ratings: unknown[] = [];
        batch.forEach((r, i) => {
          for (const t of typeKeys(r)) { owners.push(idOf.get(r.os_id)!); types.push(t); countries.push(cols[i][COUNTRY]); ratings.push(cols[i][RATING]); }
        });
        if (types.length) {
          await c.query(`INSERT INTO business_types (business, type_k, country_code, rating)
            SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::float8[]) ON CONFLICT DO NOTHING`, [owners, types, countries, ratings]);
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

  /**
   * A re-scrape mostly finds a place as it was: then only its `updated` time changes (as on SQLite),
   * and its record, types and index entries other than `updated`'s stay as they are. The os_id list
   * and the record looked up per row keep this to the batch's own rows, whatever the planner guesses
   * of the arrays (a join with business_records hashed the whole table). Returns the os_ids found as
   * they were. Of those, a row whose `updated` is already in the same second is not written
   * (sameSecond): `updated` is answered and filtered in whole seconds, so the write would change
   * nothing anyone sees, and each one is a new version of the row in every index of `businesses`
   * (`updated` is indexed, so the update is never HOT: 12 index entries a place; issue 37).
   */
  private touch(on: pg.Pool | pg.PoolClient, owner: string, batch: BusinessRecord[], texts: string[], now: number): Promise<pg.QueryResult> {
    return on.query(`WITH same AS (
        SELECT b.id, b.os_id, b.updated AS was, v.updated
        FROM businesses b JOIN unnest($2::text[], $3::text[], $4::bigint[]) AS v(os_id, record, updated) ON b.os_id = v.os_id
        WHERE b.owner = $1 AND b.os_id = ANY($2::text[]) AND v.record = (SELECT r.record FROM business_records r WHERE r.id = b.id)),
      moved AS (UPDATE businesses b SET updated = s.updated FROM same s WHERE b.id = s.id AND NOT ${sameSecond('s.was', 's.updated')})
      SELECT os_id FROM same`,
    [owner, batch.map((r) => r.os_id), texts, batch.map((r) => timesOf(r, now).updated)]);
  }

  async optimize() {
    // VACUUM marks the loaded pages all-visible, so the geo index's candidates and the counts are read
    // from indexes alone (index-only scans); a fresh bulk load otherwise checks every row in the heap.
    await this.pool.query('VACUUM (ANALYZE) businesses, business_types, business_records');
  }

  async searchBusinesses(q: BusinessQuery): Promise<BusinessPage> {
    const after = q.after !== undefined ? positionOf(q.after) : undefined;
    const d = driverOf(q);
    const p = pageOf(q, d, whereOf(q, dialect, { after }), after);
    const rows = await this.run(p.sql, p.args, planOnce(d) ? 'generic' : 'custom', d.kind === 'column' ? DRIVER_INDEX[d.column] : undefined);
    const shown = rows.slice(0, q.limit);
    const page: BusinessPage = { items: shown.map(recordOf), hasMore: rows.length > q.limit, last: shown.length ? String(shown.at(-1).id) : undefined };
    if (q.includeTotal) page.total = knownTotal(page, q) ?? await this.count(q);
    return page;
  }

  /**
   * Every match: the account's own rows and the open-data rows it has none for, counted apart. The
   * scope's OR around a subquery would keep the planner to one process and a test per row; apart,
   * each half is a plain filter (the second an anti-join) that it may scan in parallel.
   */
  private async count(q: BusinessQuery): Promise<number> {
    const w = whereOf(q, dialect, { unscoped: true });
    const sql = `SELECT (SELECT count(*) FROM businesses b WHERE b.owner = ? AND ${w.sql})
      + (SELECT count(*) FROM businesses b WHERE b.owner = '' AND ${UNSHADOWED} AND ${w.sql}) AS n`;
    return Number((await this.run(sql, [q.accountId, ...w.args, q.accountId, ...w.args], 'count'))[0].n);
  }

  /**
   * One statement. `generic` (valueFreePlan): prepared by a name derived from its text on the
   * generically planning connections, so each parses and plans it once; where the page should walk an
   * index (`walk`: a column driver, whose index PostgreSQL could also pass over for the table's id
   * order if it took the value for a common one), only once its generic plan was seen to walk it
   * (walksIndex), else as `custom`. `custom`: unnamed on the store's connections, so it is planned for
   * its values every time (a named one may turn generic after five executions). `count`: custom too,
   * in a transaction without JIT: a count reads enough rows for the planner to compile it, which costs
   * more than it saves here (64 of 87 ms at 100k rows).
   */
  private async run(sql: string, args: unknown[], how: 'generic' | 'custom' | 'count', walk?: string): Promise<any[]> {
    const { text, name } = this.statementOf(sql);
    if (how === 'generic' && (walk === undefined || (name && await this.walksIndex(text, name, args, walk)))) {
      return (await this.generic.genericQuery({ name, text, values: args })).rows;
    }
    if (how !== 'count') return (await this.pool.query({ text, values: args })).rows;
    const c = await this.pool.connect();
    try {
      await c.query('BEGIN; SET LOCAL jit = off');
      const { rows } = await c.query({ text, values: args });
      await c.query('COMMIT');
      return rows;
    } catch (e) {
      await c.query('ROLLBACK').catch(() => {});
      throw e;
    } finally {
      c.release();
    }
  }

  /**
   * Whether the generic plan of a statement walks `index` for the page's rows: asked of a generically
   * planning connection (EXPLAIN EXECUTE of the prepared statement) once per statement and
   * RECHECK_MS, as statistics move.
   */
  private async walksIndex(text: string, name: string, args: unknown[], index: string): Promise<boolean> {
    const known = this.walks.get(text);
    if (known && Date.now() - known.at < RECHECK_MS) return known.ok;
    const c = await this.generic.genericPool.connect();
    try {
      await c.query({ name, text, values: args });
      // A utility statement takes no bound parameters: the values are written as literals.
      const literal = (v: unknown) => (v == null ? 'NULL' : typeof v === 'number' && Number.isFinite(v) ? String(v) : c.escapeLiteral(String(v)));
      const { rows } = await c.query(`EXPLAIN (FORMAT JSON) EXECUTE "${name}"(${args.map(literal).join(', ')})`);
      const ok = scanOf(rows[0]['QUERY PLAN'][0].Plan, 'b')?.['Index Name'] === index;
      if (this.walks.size >= MAX_NAMED) this.walks.clear();
      this.walks.set(text, { ok, at: Date.now() });
      return ok;
    } finally {
      c.release();
    }
  }

  private readonly walks = new Map<string, { ok: boolean; at: number }>();
  private readonly statements = new Map<string, { text: string; name?: string }>();

  /**
   * A statement's `$n` text and its name, worked out once per shape; past MAX_NAMED shapes (id lists
   * of every length) further ones go unnamed.
   */
  private statementOf(sql: string): { text: string; name?: string } {
    let st = this.statements.get(sql);
    if (!st) {
      const text = numbered(sql);
      st = { text };
      if (this.statements.size < MAX_NAMED) this.statements.set(sql, (st = { text, name: `biz_${createHash('sha1').update(text).digest('base64url').slice(0, 24)}` }));
    }
    return st;
  }
}

/** Where the generically planned statements run (PgDb). */
export interface GenericPlans {
  readonly genericPool: pg.Pool;
  genericQuery(config: pg.QueryConfig): Promise<pg.QueryResult>;
}

/** Distinct statements kept prepared on each connection. */
const MAX_NAMED = 500;
/** How long a generic plan's walk, once checked, is trusted: statistics move with the data. */
const RECHECK_MS = 10 * 60_000;

interface PlanNode { 'Relation Name'?: string; Alias?: string; 'Index Name'?: string; Plans?: PlanNode[] }

/** The plan node that scans the relation aliased `alias`. */
export function scanOf(node: PlanNode, alias: string): PlanNode | undefined {
  if (node.Alias === alias && node['Relation Name']) return node;
  for (const n of node.Plans ?? []) { const found = scanOf(n, alias); if (found) return found; }
  return undefined;
}

/**
 * Whether a page's plan can be made once for any values: its walk is fixed by the SQL (the driver's
 * candidates in id order, then each one's row; ./driver.ts), so no value can make another walk
 * cheaper, or it has no index to choose from. A name walks the trigram index or the table depending
 * on the pattern: planned for its value.
 */
export function valueFreePlan(q: BusinessQuery): boolean {
  return planOnce(driverOf(q));
}

const planOnce = (d: Driver): boolean => d.kind !== 'name';

/**
 * The candidate ids of a geo or type driver in id order (a subquery kept whole: the box's candidates
 * come sorted from the point index alone, a type's from its index entries, which carry country and
 * rating), or undefined where the page reads `businesses` itself: the table's id order, an id list's
 * unique index, a column's (column, id) index (its generic plan checked, see `run`), a name.
 */
function candidatesOf(q: BusinessQuery, d: Driver, past: (col: string) => string, args: unknown[]): string | undefined {
  if (d.kind === 'geo') {
    const box = boxOf(q.geo![0]);
    args.push(box.west, box.south, box.east, box.north);
    return `SELECT g.id FROM businesses g WHERE point(g.longitude, g.latitude) <@ box(point(?::float8, ?::float8), point(?::float8, ?::float8))${past('g.id')} ORDER BY g.id`;
  }
  if (d.kind === 'type') {
    // The type rows carry country and rating (012_business_type_facts.sql): tested in the index.
    const facts = typeFactsOf(q);
    const t = ['t.type_k = ?', ...facts.map((f) => f.sql)];
    args.push(d.type, ...facts.map((f) => f.arg));
    return `SELECT t.business AS id FROM business_types t WHERE ${t.join(' AND ')}${past('t.business')} ORDER BY t.business`;
  }
  return undefined;
}

/**
 * A page: the ids, times and records of the first `limit + 1` matches in id order (each record read
 * by a subquery the planner runs for the page's rows alone, after any sort). The limit is written into
 * the text: a generic plan of `LIMIT $n` plans for a tenth of the table (83 ms for the unfiltered
 * page, where the id walk takes 0.05 ms). A driver's candidates are read in id order and each one's
 * row looked up until the page is full (a nested loop the LIMIT stops), as on SQLite: the planner
 * would otherwise read every geo candidate's row before sorting, or walk the table for a rare value.
 */
function pageOf(q: BusinessQuery, d: Driver, w: { sql: string; args: unknown[] }, after: number | undefined): { sql: string; args: unknown[] } {
  const args: unknown[] = [];
  const past = (col: string) => { if (after === undefined) return ''; args.push(after); return ` AND ${col} > ?`; };
  let from = 'businesses b';
  let where = w.sql;
  let order = 'b.id';
  const candidates = candidatesOf(q, d, past, args);
  if (candidates) {
    // Each OFFSET 0 keeps its subquery whole: the candidates in order, then each one's row looked up.
    from = `(${candidates} OFFSET 0) c CROSS JOIN LATERAL (SELECT b.id, b.added, b.updated FROM businesses b WHERE b.id = c.id AND ${where} OFFSET 0) b`;
    where = 'true';
    order = 'c.id';
    args.push(...w.args);
  } else {
    args.push(...w.args);
    where += past('b.id');
  }
  const limit = q.limit + 1;
  if (!Number.isSafeInteger(limit) || limit < 1) throw new Error(`not a page size: ${q.limit}`);
  return {
    sql: `SELECT b.id, (SELECT r.record FROM business_records r WHERE r.id = b.id) AS record, b.added, b.updated
      FROM ${from} WHERE ${where} ORDER BY ${order} LIMIT ${limit}`,
    args,
  };
}
