/**
 * Results and checkpoints on SQLite (../results/contract.ts). Records are stored through the
 * handle's codec (compressed, issue 15). The module functions are the writes a completion or a purge
 * makes inside its own transaction (./items.ts, ./requests.ts).
 *
 * @example for await (const part of new SqliteResults(h).readResults('r1')) write(part.recordsJson)
 */
import type { Checkpoint, Progress, QueryResult, ResultStore } from '../results/contract.ts';
import { unpackedResult, unpackRecords } from '../records-codec.ts';
import { CHUNK_PAGE, chunkTexts, splitItemId, type Row } from '../rows.ts';
import type { SqliteDb } from './handle.ts';
import { ownedItem } from './lease.ts';

/** Chunks a query saved so far (a streamed query's first records). */
export function savedChunks(h: SqliteDb, requestId: string, queryIndex: number): number {
  return (h.s('SELECT chunks FROM item_progress WHERE request_id = ? AND query_index = ?').get(requestId, queryIndex) as Row | undefined)?.chunks ?? 0;
}

/** Stores a query's records (or its tail after `chunks` saved chunks); a result already there is
 *  kept. True when these were stored. `utf8`: the text's UTF-8 bytes, when the caller has them. */
export function storeResult(h: SqliteDb, requestId: string, queryIndex: number, recordsJson: string, count: number, error: string | null, chunks = 0, utf8?: Buffer,
  packed?: string | Buffer): boolean {
  return h.s('INSERT OR IGNORE INTO results (request_id, query_index, records, count, error, chunks) VALUES (?, ?, ?, ?, ?, ?)')
    .run(requestId, queryIndex, packed ?? h.codec.pack(recordsJson, utf8), count, error, chunks).changes > 0;
}

/** Drops an item's checkpoint; its chunks too unless they became its result. */
export function dropProgress(h: SqliteDb, requestId: string, queryIndex: number, keepChunks: boolean): void {
  h.s('DELETE FROM item_progress WHERE request_id = ? AND query_index = ?').run(requestId, queryIndex);
  if (!keepChunks) h.s('DELETE FROM result_chunks WHERE request_id = ? AND query_index = ?').run(requestId, queryIndex);
}

/** Deletes a request's results, their chunks and checkpoints, and its dropDuplicates keys. */
export function dropResults(h: SqliteDb, requestId: string): void {
  for (const table of ['results', 'result_chunks', 'item_progress', 'request_keys']) h.s(`DELETE FROM ${table} WHERE request_id = ?`).run(requestId);
}

/** The saved chunks of one query, a page of rows at a time. */
function chunksOf(h: SqliteDb, requestId: string, queryIndex: number): AsyncIterable<string> {
  const page = h.s(`SELECT chunk, records FROM result_chunks WHERE request_id = ? AND query_index = ? AND chunk > ? ORDER BY chunk LIMIT ${CHUNK_PAGE}`);
  return chunkTexts((after) => (page.all(requestId, queryIndex, after) as Row[]).map((r) => ({ chunk: r.chunk, records: unpackRecords(r.records) })));
}

export class SqliteResults implements ResultStore {
  constructor(private readonly h: SqliteDb) {}

  async *readResults(requestId: string, afterIndex = -1): AsyncIterable<QueryResult> {
    // Iterated in pages so a 1000 x 500 result never sits in memory whole.
    const page = this.h.s(`SELECT r.query_index, r.records, r.count, r.error, r.chunks, w.query FROM results r
                           JOIN work_items w ON w.id = r.request_id || ':' || r.query_index
                           WHERE r.request_id = ? AND r.query_index > ? ORDER BY r.query_index LIMIT 20`);
    let after = afterIndex;
    for (;;) {
      const rows = page.all(requestId, after) as Row[];
      for (const r of rows) {
        const base = { queryIndex: r.query_index, query: r.query, count: r.count, error: r.error ?? null };
        if (r.chunks > 0) for await (const part of chunksOf(this.h, requestId, r.query_index)) yield { ...base, recordsJson: part, more: true };
        yield await unpackedResult(base, r.records);
      }
      if (rows.length < 20) return;
      after = rows[rows.length - 1].query_index;
    }
  }

  readChunks(itemId: string): AsyncIterable<string> {
    return chunksOf(this.h, ...splitItemId(itemId));
  }

  async saveProgress(c: Checkpoint): Promise<boolean> {
    return this.h.grouped(() => {
      const it = ownedItem(this.h, c.itemId, c.owner);
      if (!it || it.status !== 'Pending') return false;
      const n = savedChunks(this.h, it.request_id, it.query_index);
      if (c.chunk) {
        this.h.s('INSERT INTO result_chunks (request_id, query_index, chunk, records, count) VALUES (?, ?, ?, ?, ?)')
          .run(it.request_id, it.query_index, n, this.h.codec.pack(c.chunk.recordsJson), c.chunk.count);
      }
      this.h.s(`INSERT INTO item_progress (request_id, query_index, state, chunks, records, updated_at) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (request_id, query_index) DO UPDATE SET state = excluded.state, chunks = excluded.chunks,
                  records = item_progress.records + excluded.records, updated_at = excluded.updated_at`)
        .run(it.request_id, it.query_index, c.state, c.chunk ? n + 1 : n, c.chunk?.count ?? 0, c.now);
      return true;
    });
  }

  async loadProgress(itemId: string): Promise<Progress | null> {
    const r = this.h.s('SELECT state, chunks, records FROM item_progress WHERE request_id = ? AND query_index = ?').get(...splitItemId(itemId)) as Row | undefined;
    return r ? { state: r.state, chunks: r.chunks, records: r.records } : null;
  }
}
