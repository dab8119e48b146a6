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

/**
 * A parsed search array → records. A recognisable search frame with no places is a search that
 * found nothing (`[]`); a body that is neither a search frame nor a single place is
 * `layout_changed`. A search that resolved to one place may come back as a place-details array;
 * that is accepted too.
 *
 * @example
 *   parseSearchData(JSON.parse(body), { query: 'coffee' }).length // 20
 */
export function parseSearchData(data: unknown, opts: NodeOptions = {}): PlaceRecord[] {
  if (isSearchShape(data)) {
    const items = data[0][1];
    const out: PlaceRecord[] = [];
    if (Array.isArray(items)) {
      for (let i = 0; i < items.length; i++) {
        const item = items[i];
        const node = Array.isArray(item) ? item[14] : undefined;
        if (isPlaceNode(node)) out.push(placeFromNode(node, opts));
      }
    }
    return out;
  }
  const single = placeNodeOf(data);
  if (single) return [placeFromNode(single, opts)];
  throw new SourceError('layout_changed', 'search body has neither the search frame ([0][0] query echo) nor a place at [6]');
}

/**
 * The search response text → complete place records (`query` from `opts`, null otherwise).
 *
 * @example
 *   parseSearchBody(fs.readFileSync('search.json', 'utf8'), { query: 'coffee' })[0].name
 */
export function parseSearchBody(text: string, opts: NodeOptions = {}): PlaceRecord[] {
  return parseSearchData(parseJsonBody(text, 'search'), opts);
}
