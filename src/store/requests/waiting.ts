/**
 * A request's queries past its first ITEMS_AT_ONCE, cut into the chunks both stores keep waiting
 * until they become work items (./contract.ts `writeWaitingItems`, issue 39).
 *
 * @example waitingChunks(Array(2500).fill('q')) // [{ from: 1000, n: 1000, queries: '["q",...]' }, { from: 2000, n: 500, ... }]
 */
import { ITEMS_AT_ONCE } from './contract.ts';

export interface WaitingChunk {
  /** The query index of the chunk's first query. */
  from: number;
  n: number;
  /** The chunk's queries as one JSON array text. */
  queries: string;
}

/** The queries a request is stored with as items: its first ITEMS_AT_ONCE, as one JSON array text. */
export const firstItems = (queries: string[]): string => JSON.stringify(queries.length > ITEMS_AT_ONCE ? queries.slice(0, ITEMS_AT_ONCE) : queries);

export function waitingChunks(queries: string[]): WaitingChunk[] {
  const out: WaitingChunk[] = [];
  for (let from = ITEMS_AT_ONCE; from < queries.length; from += ITEMS_AT_ONCE) {
    const part = queries.slice(from, from + ITEMS_AT_ONCE);
    out.push({ from, n: part.length, queries: JSON.stringify(part) });
  }
  return out;
}
