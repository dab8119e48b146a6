/**
 * `trawl parse /realestate-search <file>`: a saved answer → records. Accepted as served: the search
 * API's JSON (list results and map pins), a search page or a property page with `__NEXT_DATA__`.
 */
import { propertyRecord } from './listing.ts';
import { answerRecords, propertyNodeOf, searchAnswerOf } from './parse.ts';
import type { EstateRecord } from './record.ts';

/** @example parseCapture(readFileSync('search-state.json', 'utf8')).length */
export function parseCapture(text: string): EstateRecord[] {
  const a = searchAnswerOf(text);
  if (a) return answerRecords(a, '', true);
  const p = propertyRecord(propertyNodeOf(text), '');
  if (p) return [p];
  throw new Error('realestate-search: expected the search API JSON (cat1.searchResults), or a search or property page with __NEXT_DATA__');
}
