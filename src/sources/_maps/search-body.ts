/**
 * The map search response (`/search?tbm=map`, `)]}'` line optional) → place records. Places sit at
 * `[0][1][i][14]` (item 0 is the query echo, not a place); each is the same node a place page holds
 * at `[6]`, so one mapper serves both.
 */
import { SourceError } from '../_kit/errors.ts';
import { isPlaceNode, placeFromNode, type NodeOptions } from './node.ts';
import { parseJsonBody, placeNodeOf } from './place-parse.ts';
import type { PlaceRecord } from './record.ts';

/** True when the array has the search response's frame: `[[<query echo string>, ...], ...]`. */
export function isSearchShape(data: unknown): data is unknown[][] {
  return Array.isArray(data) && Array.isArray(data[0]) && typeof data[0][0] === 'string';
}

/** A search page read: its places, and how many of its entries hold a node that does not read as a place. */
export interface SearchPage {
  places: PlaceRecord[];
  /** Entries with a node at `[14]` but no place in it (a block wrapped or moved): places lost, not absent. */
  unread: number;
}

/**
 * A parsed search array → its places and the entries that did not read. A recognisable search
 * frame with no places is a search that found nothing; a body that is neither a search frame nor a
 * single place is `layout_changed`. A search that resolved to one place may come back as a
 * place-details array; that is accepted too.
 *
 * @example
 *   readSearchData(JSON.parse(body), { query: 'coffee' }).places.length // 20
 */
export function readSearchData(data: unknown, opts: NodeOptions = {}): SearchPage {
  if (isSearchShape(data)) {
    const items = data[0][1];
    const places: PlaceRecord[] = [];
    let unread = 0;
    if (Array.isArray(items)) {
      for (let i = 0; i < items.length; i++) {
        const item = items[i];
        const node = Array.isArray(item) ? item[14] : undefined;
        if (isPlaceNode(node)) places.push(placeFromNode(node, opts));
        else if (node !== undefined && node !== null) unread++;
      }
    }
    return { places, unread };
  }
  const single = placeNodeOf(data);
  if (single) return { places: [placeFromNode(single, opts)], unread: 0 };
  throw new SourceError('layout_changed', 'search body has neither the search frame ([0][0] query echo) nor a place at [6]');
}

/**
 * A parsed search array → records (`readSearchData`'s places).
 *
 * @example
 *   parseSearchData(JSON.parse(body), { query: 'coffee' }).length // 20
 */
export function parseSearchData(data: unknown, opts: NodeOptions = {}): PlaceRecord[] {
  return readSearchData(data, opts).places;
}

/**
 * The search response text (or the response: ./place-parse.ts parseJsonBody) → its places and unread
 * entries (`query` from `opts`, null otherwise).
 *
 * @example
 *   readSearchBody(fs.readFileSync('search.json', 'utf8'), { query: 'coffee' }).unread // 0
 */
export function readSearchBody(text: string | { body: string }, opts: NodeOptions = {}): SearchPage {
  return readSearchData(parseJsonBody(text, 'search'), opts);
}

/**
 * The search response text → complete place records (`query` from `opts`, null otherwise).
 *
 * @example
 *   parseSearchBody(fs.readFileSync('search.json', 'utf8'), { query: 'coffee' })[0].name
 */
export function parseSearchBody(text: string | { body: string }, opts: NodeOptions = {}): PlaceRecord[] {
  return readSearchBody(text, opts).places;
}
