/**
 * Results and checkpoints, the store's part that keeps what queries found (issue 16). A query's
 * records are written once, by the completion of its item (../requests/contract.ts); a long query
 * checkpoints step by step (its resume state, its records so far as numbered chunks), and a
 * streamed query's chunks become the first parts of its result.
 *
 * @example for await (const part of store.readResults(requestId)) socket.write(part.recordsJson)
 */
import type { RequestRow } from '../requests/contract.ts';

export interface QueryResult {
  queryIndex: number;
  query: string;
  /** Records of this query as a JSON array text, exactly as stored. A query stored in chunks (a
   *  streamed paged query) comes as several parts in order, each an array text with the same
   *  queryIndex, `more` true on every part but the last; never one string for the whole query. */
  recordsJson: string;
  /** The same text as UTF-8, when the store had it at hand (a result just stored, FanIn.stored): sent
   *  as it is instead of being encoded again. */
  recordsUtf8?: Buffer;
  /** Records of the whole query (every part). */
  count: number;
  /** Set when the query ended in failure (`<type>: <message>`), or when it ended early with the
   *  records it had (e.g. `step_budget: ...`). */
  error: string | null;
  /** True when more parts of the same query follow. */
  more?: boolean;
}

/** A checkpoint of a running query, written after each step (see ResultStore.saveProgress). */
export interface Checkpoint {
  itemId: string;
  owner: string;
  /** The runner's resume state (steps still to run, counters) as JSON text; the store keeps it as is. */
  state: string;
  /** Records of the step just run, as a JSON array text, stored as the query's next chunk. */
  chunk?: { recordsJson: string; count: number };
  now: number;
}

/** What a query checkpointed so far (see ResultStore.loadProgress). */
export interface Progress {
  state: string;
  /** Chunks written (numbered from 0) and the records in them. */
  chunks: number;
  records: number;
}

export interface ResultStore {
  /** Results in query order, after query index `afterIndex` (default: from the first). */
  readResults(requestId: string, afterIndex?: number): AsyncIterable<QueryResult>;
  /** Optional: the request and the first `page` results in one round trip, for backends where a
   *  round trip is the cost of a read (PostgreSQL). */
  getRequestWithResults?(id: string, page: number): Promise<{ row: RequestRow; first: QueryResult[] } | null>;
  /** Checkpoint of a running query: writes the chunk (numbered after the saved ones) and the resume
   *  state in one transaction, only while `owner` leases the item; false (nothing written) otherwise. */
  saveProgress(c: Checkpoint): Promise<boolean>;
  /** The last checkpoint of an item, or null when it has none (first attempt, or ended). */
  loadProgress(itemId: string): Promise<Progress | null>;
  /** The saved chunks of an item, in order (a buffering adapter rebuilding its records on resume). */
  readChunks(itemId: string): AsyncIterable<string>;
}
