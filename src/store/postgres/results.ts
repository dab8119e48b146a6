/**
 * Results and checkpoints on PostgreSQL (../results/contract.ts). A completion writes its result in
 * its own statement (./complete-item.ts); `dropResults` is the purge's share (./requests.ts).
 *
 * @example for await (const part of new PostgresResults(h).readResults('r1')) write(part.recordsJson)
 */
import type { RequestRow } from '../requests/contract.ts';
import type { Checkpoint, Progress, QueryResult, ResultStore } from '../results/contract.ts';
import { CHUNK_PAGE, chunkTexts, rowMappers, splitItemId, type Row } from '../rows.ts';
import { CheckpointFree } from './checkpoint-free.ts';
import type { Client, PgDb } from './handle.ts';

const { toRequest } = rowMappers((v) => v);

/** Deletes the requests' results, their chunks and checkpoints, and their dropDuplicates keys. */
export async function dropResults(h: PgDb, c: Client, ids: string[]): Promise<void> {
  for (const table of ['results', 'result_chunks', 'item_progress', 'request_keys']) await h.q(`DELETE FROM ${table} WHERE request_id = ANY($1::text[])`, [ids], c);
}

/** The saved chunks of one query, a page of rows at a time. */
function chunksOf(h: PgDb, requestId: string, queryIndex: number): AsyncIterable<string> {
  return chunkTexts((after) => h.q(`SELECT chunk, records FROM result_chunks WHERE request_id = $1 AND query_index = $2 AND chunk > $3
                                    ORDER BY chunk LIMIT ${CHUNK_PAGE}`, [requestId, queryIndex, after]));
}

/** One results row as its parts: its saved chunks (streamed queries) first, then its own records. */
async function* withChunks(h: PgDb, requestId: string, r: Row): AsyncIterable<QueryResult> {
  const base = { queryIndex: r.query_index, query: r.query, count: r.count, error: r.error ?? null };
  if (r.chunks > 0) for await (const part of chunksOf(h, requestId, r.query_index)) yield { ...base, recordsJson: part, more: true };
  yield { ...base, recordsJson: r.records };
}

export class PostgresResults implements Required<ResultStore> {
  /** `free`: shared with the store's PostgresItems (./checkpoint-free.ts). */
  constructor(private readonly h: PgDb, private readonly free = new CheckpointFree()) {}

  async getRequestWithResults(id: string, page: number): Promise<{ row: RequestRow; first: QueryResult[] } | null> {
    // One round trip for the common read of a finished request: the row and its first results.
    const [r] = await this.h.q(`SELECT q.*, (SELECT COALESCE(json_agg(x ORDER BY x.query_index), '[]'::json) FROM (
                                  SELECT r.query_index, r.records, r.count, r.error, r.chunks, w.query FROM results r
                                  JOIN work_items w ON w.id = r.request_id || ':' || r.query_index
                                  WHERE r.request_id = q.id AND q.finished_at IS NOT NULL ORDER BY r.query_index LIMIT $2) x) AS first_page
                                FROM requests q WHERE q.id = $1`, [id, page]);
    if (!r) return null;
    const first: QueryResult[] = [];
    for (const x of r.first_page as Row[]) {
      for await (const part of withChunks(this.h, id, x)) first.push(part);
    }
    return { row: toRequest(r), first };
  }

  async *readResults(requestId: string, afterIndex = -1): AsyncIterable<QueryResult> {
    // Pages by query index so a 1000 x 500 result never sits in memory whole and no connection is
    // held while the consumer writes to a slow socket.
    let after = afterIndex;
    for (;;) {
      const rows = await this.h.q(`SELECT r.query_index, r.records, r.count, r.error, r.chunks, w.query FROM results r
                                   JOIN work_items w ON w.id = r.request_id || ':' || r.query_index
                                   WHERE r.request_id = $1 AND r.query_index > $2 ORDER BY r.query_index LIMIT 20`, [requestId, after]);
      for (const r of rows) yield* withChunks(this.h, requestId, r);
      if (rows.length < 20) return;
      after = rows[rows.length - 1].query_index;
    }
  }

  readChunks(itemId: string): AsyncIterable<string> {
    return chunksOf(this.h, ...splitItemId(itemId));
  }

  /*
   * A checkpoint in one statement: it locks the item if this owner still leases it (no row: nothing
   * is written), moves the progress row on (chunks + 1 when a chunk comes) and stores the chunk under
   * the number the progress row had.
   */
  async saveProgress(c: Checkpoint): Promise<boolean> {
    // Before it is sent: the item's completion keeps the checkpoint's deletes from now on.
    this.free.forget(c.itemId);
    const [x] = await this.h.q(`WITH it AS (
                                  SELECT w.request_id, w.query_index FROM work_items w JOIN requests r ON r.id = w.request_id
                                  WHERE w.id = $1 AND w.state = 'leased' AND w.lease_owner = $2 AND r.status = 'Pending' FOR UPDATE OF w),
                                p AS (INSERT INTO item_progress (request_id, query_index, state, chunks, records, updated_at)
                                      SELECT request_id, query_index, $3, $6::int, COALESCE($5::int, 0), $7 FROM it
                                      ON CONFLICT (request_id, query_index) DO UPDATE SET state = excluded.state,
                                        chunks = item_progress.chunks + excluded.chunks, records = item_progress.records + excluded.records,
                                        updated_at = excluded.updated_at
                                      RETURNING chunks),
                                c AS (INSERT INTO result_chunks (request_id, query_index, chunk, records, count)
                                      SELECT it.request_id, it.query_index, p.chunks - 1, $4, $5::int FROM it, p WHERE $4::text IS NOT NULL)
                                SELECT COUNT(*) AS n FROM p`,
    [c.itemId, c.owner, c.state, c.chunk?.recordsJson ?? null, c.chunk?.count ?? null, c.chunk ? 1 : 0, c.now]);
    return x.n > 0;
  }

  async loadProgress(itemId: string): Promise<Progress | null> {
    const [r] = await this.h.q('SELECT state, chunks, records FROM item_progress WHERE request_id = $1 AND query_index = $2', splitItemId(itemId));
    return r ? { state: r.state, chunks: r.chunks, records: r.records } : null;
  }
}
