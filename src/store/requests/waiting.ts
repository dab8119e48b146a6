/**
 * The queries of a request of more than ITEMS_AT_ONCE, cut into the chunks both stores keep waiting
 * until they become work items (./contract.ts `writeWaitingItems`, issue 39).
 *
 * @example waitingChunks(Array(1500).fill('q')) // [{ from: 0, n: 1000, queries: '["q",...]' }, { from: 1000, n: 500, ... }]
 */
import { ITEMS_AT_ONCE } from './contract.ts';

export interface WaitingChunk {
  /** The query index of the chunk's first query. */
  from: number;
  n: number;
  /** The chunk's queries as one JSON array text. */
  queries: string;
}

/** The queries a request is stored with as items, as one JSON array text: all, or none past ITEMS_AT_ONCE. */
export const storedItems = (queries: string[]): string => (queries.length > ITEMS_AT_ONCE ? '[]' : JSON.stringify(queries));

/** The chunks a request waits with: none up to ITEMS_AT_ONCE queries, else all of them. */
export function waitingChunks(queries: string[]): WaitingChunk[] {
  const out: WaitingChunk[] = [];
  if (queries.length <= ITEMS_AT_ONCE) return out;
  for (let from = 0; from < queries.length; from += ITEMS_AT_ONCE) {
    const part = queries.slice(from, from + ITEMS_AT_ONCE);
    out.push({ from, n: part.length, queries: JSON.stringify(part) });
  }
  return out;
}
