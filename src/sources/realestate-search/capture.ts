/**
 * `trawl parse /realestate-search <file>`: a saved answer → records. Accepted as served: the search
 * API's JSON (list results and map pins), a search page or a property page with `__NEXT_DATA__`, and
 * a bare array of list-result items (what scrapers dump from `cat1.searchResults.listResults`).
 */
import { propertyRecord } from './listing.ts';
import { answerRecords, propertyNodeOf, searchAnswerOf, type SearchAnswer } from './parse.ts';
import type { EstateRecord } from './record.ts';

/** @example parseCapture(readFileSync('search-state.json', 'utf8')).length */
export function parseCapture(text: string): EstateRecord[] {
  const a = searchAnswerOf(text) ?? bareListOf(text);
  if (a) return answerRecords(a, '', true);
  const p = propertyRecord(propertyNodeOf(text), '');
  if (p) return [p];
  throw new Error('realestate-search: expected the search API JSON (cat1.searchResults), a list of its listResults items, or a search or property page with __NEXT_DATA__');
}

/** A JSON array of list-result items (each with a `zpid`), read as a search answer's list. */
function bareListOf(text: string): SearchAnswer | null {
  if (!text.trimStart().startsWith('[')) return null;
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch {
    return null;
  }
  const isItem = (x: unknown) => !!x && typeof x === 'object' && 'zpid' in x;
  if (!Array.isArray(list) || !list.length || !list.some(isItem)) return null;
  return { list, map: [], total: null, totalPages: null, queryState: null };
}
