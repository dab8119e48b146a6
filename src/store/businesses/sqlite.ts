/**
 * The business database on SQLite: names through an FTS5 trigram index (substring LIKE served by the
 * index), points through an R*Tree, the other filters through plain indexes (004/005_businesses*.sql).
 * better-sqlite3 is synchronous: an upsert batch is one transaction.
 *
 * Pages are keyset by the row id, in index order: a search walks one "driver" (driver.ts, walkOf) whose rows
 * come out in id order, tests the other filters on each, and stops after `limit + 1` matches; nothing
 * sorts every match. Only geo and id lists, whose candidates are few by nature, are collected and
 * sorted. The records are read for the page's ids alone.
 */
import type Database from 'better-sqlite3';
import { encodeRecord } from './record-text.ts';
import type { BusinessPage, BusinessQuery, BusinessRecord, BusinessStore } from './contract.ts';
import { COLUMNS, boxOf, columnsOf, sameSecond, distanceM, knownTotal, likeEscape, positionOf, recordOf, timesOf, typeKeys, uniqueByOsId, whereOf, type Dialect } from './row.ts';
import { DRIVER_INDEX, driverOf } from './driver.ts';

const dialect: Dialect = {
  // A row already at hand is tested directly; the trigram index serves names only as a driver.
  nameLike: () => "b.name_k LIKE ? ESCAPE '\\'",
  inBox: () => 'b.longitude >= ? AND b.latitude >= ? AND b.longitude <= ? AND b.latitude <= ?',
};

/**
 * Where a page's candidates come from: `from` joins `b`, `lead` is the driver's own condition, `order`
 * the id column the walk follows.
 */
interface Walk { from: string; lead: string[]; args: unknown[]; order: string; geo?: true }

/**
 * The walk of a search's driver (./driver.ts). An ordered driver yields ids ascending (an index on one
 * equality ends with the rowid; FTS5 and business_types give rowid order), so LIMIT stops it early.
 */
function walkOf(q: BusinessQuery): Walk {
  const plain = (index: string | null): Walk => ({ from: `businesses b${index ? ` INDEXED BY ${index}` : ''}`, lead: [], args: [], order: 'b.id' });
  const d = driverOf(q);
  switch (d.kind) {
    // The unique (owner, os_id) index, by the owner and os_id lists whereOf states.
    case 'ids': return plain(null);
    case 'geo': {
      // R*Tree coordinates are 32-bit floats rounded outwards: an overlap test keeps every candidate,
      // the exact test follows in whereOf. The candidates' ids are collected and sorted (few, by area).
      const box = boxOf(q.geo![0]);
      return { from: 'businesses_geo g CROSS JOIN businesses b ON b.id = g.id', order: 'b.id', geo: true,
        lead: ['g.max_lat >= ? AND g.min_lat <= ? AND g.max_lng >= ? AND g.min_lng <= ?'], args: [box.south, box.north, box.west, box.east] };
    }
    case 'name': return { from: 'businesses_fts f CROSS JOIN businesses b ON b.id = f.rowid', order: 'f.rowid', lead: ["f.name_k LIKE ? ESCAPE '\\'"], args: [`%${likeEscape(d.pattern)}%`] };
    case 'column': return plain(DRIVER_INDEX[d.column]);
    case 'type': return { from: 'business_types t CROSS JOIN businesses b ON b.id = t.business', order: 't.business', lead: ['t.type_k = ?'], args: [d.type] };
    // The table itself, in rowid order (else the planner splits the owner test into an OR of index
    // searches and sorts every row).
    case 'table': return { from: 'businesses b NOT INDEXED', lead: [], args: [], order: 'b.id' };
  }
}

export class SqliteBusinessStore implements BusinessStore {
  private readonly upsertTx: (owner: string, records: BusinessRecord[], now: number) => { added: number; updated: number };

  constructor(private readonly db: Database.Database) {
    db.function('distance_m', { deterministic: true }, (a, b, c, d) =>
      (c == null || d == null ? null : distanceM(Number(a), Number(b), Number(c), Number(d))));
    // A re-scrape mostly finds a place as it was (`same`): then only its `updated` time changes, and
    // its columns, name, point and type index rows stay as they are (they follow from the same record);
    // and not even that when `updated` is already in the same second (row.ts sameSecond: nothing anyone
    // sees would change, and the write rewrites the row and its `updated` index entry). The cast: a
    // bound number is a REAL, whose division keeps the fraction.
    const find = db.prepare(`SELECT b.id, b.name_k, (SELECT r.record = ? FROM business_records r WHERE r.id = b.id) AS same,
      ${sameSecond('b.updated', 'CAST(? AS INTEGER)')} AS recent FROM businesses b WHERE b.owner = ? AND b.os_id = ?`);
    const touch = db.prepare('UPDATE businesses SET updated = ? WHERE id = ?');
    const insert = db.prepare(`INSERT INTO businesses (owner, os_id, ${COLUMNS.join(', ')}, added, updated)
      VALUES (?, ?, ${COLUMNS.map(() => '?').join(', ')}, ?, ?)`);
    const update = db.prepare(`UPDATE businesses SET ${COLUMNS.map((c) => `${c} = ?`).join(', ')}, updated = ? WHERE id = ?`);
    const recordPut = db.prepare('INSERT OR REPLACE INTO business_records (id, record) VALUES (?, ?)');
    // External-content FTS5: a removal names the text it indexed.
    const ftsDel = db.prepare("INSERT INTO businesses_fts (businesses_fts, rowid, name_k) VALUES ('delete', ?, ?)");
    const ftsAdd = db.prepare('INSERT INTO businesses_fts (rowid, name_k) VALUES (?, ?)');
    const geoDel = db.prepare('DELETE FROM businesses_geo WHERE id = ?');
    const geoAdd = db.prepare('INSERT INTO businesses_geo VALUES (?, ?, ?, ?, ?)');
    const typesDel = db.prepare('DELETE FROM business_types WHERE business = ?');
    const typeAdd = db.prepare('INSERT OR IGNORE INTO business_types (business, type_k) VALUES (?, ?)');
    this.upsertTx = db.transaction((owner: string, records: BusinessRecord[], now: number) => {
      let added = 0;
      let updated = 0;
      for (const r of uniqueByOsId(records)) {
        const text = encodeRecord(r);
        const t = timesOf(r, now);
        const had = find.get(text, t.updated, owner, r.os_id) as { id: number; name_k: string; same: number | null; recent: number } | undefined;
        if (had?.same) {
          if (!had.recent) touch.run(t.updated, had.id);
          updated++;
          continue;
        }
        const cols = columnsOf(r);
        let id: number;
        if (had) {
          id = had.id;
          update.run(...cols, t.updated, id);
          if (had.name_k !== cols[0]) { ftsDel.run(id, had.name_k); ftsAdd.run(id, cols[0]); }
          geoDel.run(id); typesDel.run(id);
          updated++;
        } else {
          id = Number(insert.run(owner, r.os_id, ...cols, t.added, t.updated).lastInsertRowid);
          ftsAdd.run(id, cols[0]);
          added++;
        }
        recordPut.run(id, text);
        if (r.latitude != null && r.longitude != null) geoAdd.run(id, r.latitude, r.latitude, r.longitude, r.longitude);
        for (const t of typeKeys(r)) typeAdd.run(id, t);
      }
      return { added, updated };
    });
  }

  async upsertBusinesses(owner: string, records: BusinessRecord[], now: number) {
    return this.upsertTx(owner, records, now);
  }

  async optimize() {
    // A sampled ANALYZE (SQLite's advice for PRAGMA optimize): seconds on a million rows, not minutes.
    this.db.pragma('analysis_limit = 1000');
    this.db.exec('ANALYZE businesses; ANALYZE business_types');
  }

  async searchBusinesses(q: BusinessQuery): Promise<BusinessPage> {
    const d = walkOf(q);
    const lead = [...d.lead];
    const leadArgs = [...d.args];
    // The driver's own filter is not tested twice (the name's is the costly one).
    const w = whereOf(d.order === 'f.rowid' ? { ...q, name: undefined } : q, dialect);
    const after = q.after !== undefined ? positionOf(q.after) : undefined;
    let ids: number[];
    if (d.geo) ids = this.geoPage(d, w, after, q.limit + 1);
    else {
      if (after !== undefined) { lead.push(`${d.order} > ?`); leadArgs.push(after); }
      ids = this.db.prepare(`SELECT b.id FROM ${d.from} WHERE ${[...lead, w.sql].join(' AND ')} ORDER BY ${d.order} LIMIT ?`).pluck()
        .all(...leadArgs, ...w.args, q.limit + 1) as number[];
    }
    const shown = ids.slice(0, q.limit);
    const rows = shown.length
      ? this.db.prepare(`SELECT b.id, r.record, b.added, b.updated FROM businesses b JOIN business_records r ON r.id = b.id WHERE b.id IN (${shown.map(() => '?').join(',')})`)
        .all(...shown) as { id: number; record: string; added: number; updated: number }[]
      : [];
    const byId = new Map(rows.map((r) => [r.id, r]));
    const page: BusinessPage = { items: shown.map((id) => recordOf(byId.get(id)!)), hasMore: ids.length > q.limit, last: shown.length ? String(shown.at(-1)) : undefined };
    if (q.includeTotal) {
      // Through the same driver: its rows come in rowid order, so the table is read nearly in sequence
      // (a range index such as rating's would read it at random, several times slower at 1M rows).
      page.total = knownTotal(page, q) ?? this.db.prepare(`SELECT count(*) FROM ${d.from} WHERE ${[...d.lead, w.sql].join(' AND ')}`).pluck().get(...d.args, ...w.args) as number;
    }
    return page;
  }

  /**
   * A geo page: the R*Tree's candidates after `after`, sorted by id, then tested a few at a time in
   * that order until `want` pass (most pass: a circle fills 79 % of its box), so only those rows and a
   * few more are read, never every candidate's.
   */
  private geoPage(d: Walk, w: { sql: string; args: unknown[] }, after: number | undefined, want: number): number[] {
    const cands = this.db.prepare(`SELECT id FROM businesses_geo g WHERE ${d.lead[0]}${after !== undefined ? ' AND id > ?' : ''}`).pluck()
      .all(...d.args, ...(after !== undefined ? [after] : [])) as number[];
    cands.sort((x, y) => x - y);
    const ids: number[] = [];
    for (let at = 0, n = Math.max(32, 2 * want); at < cands.length && ids.length < want; at += n, n = Math.min(n * 4, 4096)) {
      const chunk = cands.slice(at, at + n);
      ids.push(...this.db.prepare(`SELECT b.id FROM businesses b WHERE b.id IN (${chunk.map(() => '?').join(',')}) AND ${w.sql} ORDER BY b.id`).pluck()
        .all(...chunk, ...w.args) as number[]);
    }
    return ids.slice(0, want);
  }
}
