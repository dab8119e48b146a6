/**
 * `trawl run` with more queries than one request takes: the queries are cut, in order, into parts
 * that each fit the API's limits (at most 1000 queries, and a query string the server reads: its
 * request target is 128 KiB by default, src/http/limits.ts), each part is one request, and their
 * results are merged back into one answer in the order of the queries, shown as one progress.
 *
 * At most `window` parts run at once (the rest are submitted as those end), so a file of a million
 * lines does not put a thousand requests in the queue at once. Progress is read for all running
 * parts in one call (GET /requests?type=running), not one poll per part, which would spend the
 * account's rate limit. A part the server still finds too long (414, 431: a smaller
 * MAX_TARGET_BYTES) is halved and sent again.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { TrawlError, type DataPath, type Progress, type QueryError, type TrawlClient } from '../../../clients/typescript/src/client.ts';
import { MAX_QUERIES } from '../../contract/shared.ts';

/** Most bytes the queries of one part add to its request target: the server's default 128 KiB less room for the path and parameters. */
export const PART_QUERY_BYTES = 96 * 1024;

/** Bytes a query adds to the query string (`&query=` and the value, form-encoded as the client sends it). */
const queryBytes = (q: string) => new URLSearchParams({ query: q }).toString().length + 1;

/**
 * The queries cut into parts of at most `maxQueries` queries and `maxBytes` bytes of query string,
 * in order (a query longer than `maxBytes` alone is a part: the server says what it thinks of it).
 * @example partsOf(['a', 'b', 'c'], { maxQueries: 2 }) // [['a', 'b'], ['c']]
 */
export function partsOf(queries: string[], o: { maxQueries?: number; maxBytes?: number } = {}): string[][] {
  const maxQ = o.maxQueries ?? MAX_QUERIES;
  const maxB = o.maxBytes ?? PART_QUERY_BYTES;
  const parts: string[][] = [];
  let cur: string[] = [];
  let bytes = 0;
  for (const q of queries) {
    const b = queryBytes(q);
    if (cur.length && (cur.length >= maxQ || bytes + b > maxB)) {
      parts.push(cur);
      cur = [];
      bytes = 0;
    }
    cur.push(q);
    bytes += b;
  }
  if (cur.length) parts.push(cur);
  return parts;
}

/** A part that ended in Failure: its queries have no records. */
export interface FailedPart { id: string; first: number; queries: number; reason: string | null }

export interface PartsResult {
  /** One array of records per query, in the order of the queries. */
  data: unknown[][];
  /** Queries that failed, in the parts that succeeded. */
  errors: QueryError[];
  failed: FailedPart[];
  /** The parts' request ids, in order. */
  ids: string[];
}

export interface PartsOptions {
  onProgress?: (p: Progress) => void;
  /** Each part's request id as it is submitted (first: the index of its first query). */
  onSubmit?: (id: string, first: number, queries: number) => void;
  signal?: AbortSignal;
  /** Parts running at once. */
  window?: number;
  pollMs?: number;
  maxPollMs?: number;
}

interface Running { part: number; done: number; records: number }

/**
 * Runs each part as one request and merges their results in order. Throws the API's error when a
 * part is refused (a bad parameter is refused for the first part, before any other is sent).
 */
export async function runParts(client: TrawlClient, endpoint: DataPath, parts: string[][], params: Record<string, unknown>, o: PartsOptions = {}): Promise<PartsResult> {
  parts = parts.slice();
  const window = o.window ?? 20;
  const first = o.pollMs ?? 250;
  const total = parts.reduce((n, p) => n + p.length, 0);
  const started = Date.now();
  const results: ({ data: unknown[][]; errors: QueryError[] } | { failed: string | null })[] = [];
  const ids: string[] = [];
  const running = new Map<string, Running>();
  let next = 0;
  let ended = 0;
  let doneQueries = 0;
  let doneRecords = 0;
  let delay = first;
  let lastMoved = -1;
  const offset = (part: number) => parts.slice(0, part).reduce((n, p) => n + p.length, 0);
  while (ended < parts.length) {
    while (running.size < window && next < parts.length) {
      let id: string;
      try {
        ({ id } = await client.submit(endpoint, parts[next]!, params as never, o.signal));
      } catch (e) {
        // Too long for this server: halve the part and send the halves.
        if (e instanceof TrawlError && (e.status === 414 || e.status === 431) && parts[next]!.length > 1) {
          const p = parts[next]!;
          parts.splice(next, 1, p.slice(0, p.length >> 1), p.slice(p.length >> 1));
          continue;
        }
        throw e;
      }
      ids[next] = id;
      running.set(id, { part: next, done: 0, records: 0 });
      o.onSubmit?.(id, offset(next), parts[next]!.length);
      next++;
    }
    // Progress of every running part in one call; a part it does not list has ended (or is not listed yet).
    const listed = new Map((await client.requests({ type: 'running', pageSize: 100 })).map((r) => [r.id, r.progress]));
    for (const [id, run] of running) {
      const p = listed.get(id);
      if (p) {
        run.done = p.queries_done;
        run.records = p.records;
        continue;
      }
      const s = await client.state(id, { signal: o.signal });
      if (s.status === 'Pending') {
        run.done = s.progress?.queries_done ?? run.done;
        run.records = s.progress?.records ?? run.records;
        continue;
      }
      running.delete(id);
      ended++;
      doneQueries += parts[run.part]!.length;
      if (s.status === 'Success') {
        results[run.part] = { data: s.data, errors: s.errors };
        doneRecords += s.data.reduce((n, q) => n + (Array.isArray(q) ? q.length : 1), 0);
      } else {
        results[run.part] = { failed: s.reason };
      }
    }
    let done = doneQueries;
    let records = doneRecords;
    for (const r of running.values()) { done += r.done; records += r.records; }
    o.onProgress?.({ queries_total: total, queries_done: done, records, elapsedMs: Date.now() - started });
    if (ended >= parts.length) break;
    if (done !== lastMoved) { lastMoved = done; delay = first; }
    await sleep(delay, undefined, { signal: o.signal });
    delay = Math.min(Math.round(delay * 1.5), o.maxPollMs ?? 2_000);
  }
  const out: PartsResult = { data: [], errors: [], failed: [], ids };
  results.forEach((r, i) => {
    if ('failed' in r) {
      out.failed.push({ id: ids[i]!, first: out.data.length, queries: parts[i]!.length, reason: r.failed });
      for (let k = 0; k < parts[i]!.length; k++) out.data.push([]);
      return;
    }
    for (const q of r.data) out.data.push(Array.isArray(q) ? q : [q]);
    out.errors.push(...r.errors);
  });
  return out;
}
