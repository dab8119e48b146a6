/**
 * The business database on SQLite: names through an FTS5 trigram index (substring LIKE served by the
 * index), points through an R*Tree, the other filters through plain indexes (004_businesses.sql).
 * better-sqlite3 is synchronous: an upsert batch is one transaction.
 */
import type Database from 'better-sqlite3';
import type { BusinessPage, BusinessQuery, BusinessRecord, BusinessStore } from './contract.ts';
import { COLUMNS, columnsOf, distanceM, recordOf, typeKeys, whereOf, type Dialect } from './row.ts';

const dialect: Dialect = {
  nameLike: () => "b.id IN (SELECT rowid FROM businesses_fts WHERE name_k LIKE ? ESCAPE '\\')",
  inBox: () => // R*Tree coordinates are 32-bit floats rounded outwards: an overlap test keeps every candidate,
  // the exact test follows in whereOf.
  'b.id IN (SELECT id FROM businesses_geo WHERE max_lat >= ? AND min_lat <= ? AND max_lng >= ? AND min_lng <= ?)',
};

export class SqliteBusinessStore implements BusinessStore {
  private readonly upsertTx: (owner: string, records: BusinessRecord[], now: number) => { added: number; updated: number };

  constructor(private readonly db: Database.Database) {
    db.function('distance_m', { deterministic: true }, (a, b, c, d) =>
      (c == null || d == null ? null : distanceM(Number(a), Number(b), Number(c), Number(d))));
    const find = db.prepare('SELECT id FROM businesses WHERE owner = ? AND os_id = ?');
    const insert = db.prepare(`INSERT INTO businesses (owner, os_id, record, ${COLUMNS.join(', ')}, added, updated)
      VALUES (?, ?, ?, ${COLUMNS.map(() => '?').join(', ')}, ?, ?)`);
    const update = db.prepare(`UPDATE businesses SET record = ?, ${COLUMNS.map((c) => `${c} = ?`).join(', ')}, updated = ? WHERE id = ?`);
    const ftsDel = db.prepare('DELETE FROM businesses_fts WHERE rowid = ?');
    const ftsAdd = db.prepare('INSERT INTO businesses_fts (rowid, name_k) VALUES (?, ?)');
    const geoDel = db.prepare('DELETE FROM businesses_geo WHERE id = ?');
    const geoAdd = db.prepare('INSERT INTO businesses_geo VALUES (?, ?, ?, ?, ?)');
    const typesDel = db.prepare('DELETE FROM business_types WHERE business = ?');
    const typeAdd = db.prepare('INSERT OR IGNORE INTO business_types (business, type_k) VALUES (?, ?)');
    this.upsertTx = db.transaction((owner: string, records: BusinessRecord[], now: number) => {
      let added = 0;
      let updated = 0;
      for (const r of records) {
        const cols = columnsOf(r);
        const text = JSON.stringify(r);
        const had = find.get(owner, r.os_id) as { id: number } | undefined;
        let id: number;
        if (had) {
          id = had.id;
          update.run(text, ...cols, now, id);
          ftsDel.run(id); geoDel.run(id); typesDel.run(id);
          updated++;
        } else {
          id = Number(insert.run(owner, r.os_id, text, ...cols, now, now).lastInsertRowid);
          added++;
        }
        ftsAdd.run(id, cols[0]);
        if (r.latitude != null && r.longitude != null) geoAdd.run(id, r.latitude, r.latitude, r.longitude, r.longitude);
        for (const t of typeKeys(r)) typeAdd.run(id, t);
      }
      return { added, updated };
    });
  }

  async upsertBusinesses(owner: string, records: BusinessRecord[], now: number) {
    return this.upsertTx(owner, records, now);
  }

  async searchBusinesses(q: BusinessQuery): Promise<BusinessPage> {
    const w = whereOf(q, dialect);
    const after = q.after !== undefined ? ' AND b.os_id > ?' : '';
    // Without a selective filter the planner would read every row of the account and sort them; walking
    // the os_id index in page order stops after limit + 1 matches.
    const selective = q.osIds || q.countryCode || q.states || q.cities || q.counties || q.postalCodes || q.types || q.name || q.geo || q.domain;
    const rows = this.db.prepare(`SELECT b.record, b.added, b.updated FROM businesses b${selective ? '' : ' INDEXED BY businesses_by_os_id'} WHERE ${w.sql}${after} ORDER BY b.os_id LIMIT ?`)
      .all(...w.args, ...(q.after !== undefined ? [q.after] : []), q.limit + 1) as { record: string; added: number; updated: number }[];
    const page: BusinessPage = { items: rows.slice(0, q.limit).map(recordOf), hasMore: rows.length > q.limit };
    if (q.includeTotal) page.total = (this.db.prepare(`SELECT count(*) AS n FROM businesses b WHERE ${w.sql}`).get(...w.args) as { n: number }).n;
    return page;
  }
}
