/**
 * `trawl parse /maps/search <file>`: any response this endpoint fetches (search JSON, place JSON,
 * place page HTML; `)]}'` line optional) → records.
 */
import { parseMaybeXssiJson } from '../_kit/xssi.ts';
import { parseCapture as parsePlaceCapture } from '../_maps/place-capture.ts';
import { looksLikeHtml } from '../_maps/place-parse.ts';
import type { PlaceRecord } from '../_maps/record.ts';
import { isSearchShape, parseSearchData } from '../_maps/search-body.ts';

/**
 * @example
 *   parseCapture(fs.readFileSync('search.json', 'utf8')).length // 20
 */
export function parseCapture(text: string, query: string | null = null): PlaceRecord[] {
  if (typeof text !== 'string' || text.trim() === '') throw new Error('capture is empty');
  if (looksLikeHtml(text)) return parsePlaceCapture(text, query);
  const data = parseMaybeXssiJson(text);
  if (data === undefined) throw new Error('capture is neither HTML nor JSON (with or without the )]}\' line)');
  if (isSearchShape(data)) return parseSearchData(data, { query });
  if (Array.isArray(data) && Array.isArray(data[6])) return parsePlaceCapture(text, query);
  throw new Error('capture is JSON but neither a map search body ([0][0] query echo) nor a place-details body (place at [6])');
}
