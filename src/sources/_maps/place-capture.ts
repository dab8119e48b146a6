/**
 * `trawl parse` support: a saved place response (place page HTML, or place-details JSON with or
 * without the `)]}'` line) → its records, whatever the kind.
 */
import { parseMaybeXssiJson } from '../_kit/xssi.ts';
import { extractPlaceFromHtml, looksLikeHtml, placeFromData } from './place-parse.ts';
import type { PlaceRecord } from './record.ts';

/** Which response kind a capture is; 'unknown' when it is none this folder understands. */
export type CaptureKind = 'search-json' | 'place-json' | 'place-html' | 'unknown';

/**
 * @example
 *   parseCapture(fs.readFileSync('place.html', 'utf8')) // [PlaceRecord]
 */
export function parseCapture(text: string, query: string | null = null): PlaceRecord[] {
  if (typeof text !== 'string' || text.trim() === '') throw new Error('capture is empty');
  if (looksLikeHtml(text)) {
    if (!text.includes('APP_INITIALIZATION_STATE')) throw new Error('HTML capture is not a map place page (no APP_INITIALIZATION_STATE)');
    return [extractPlaceFromHtml(text, { query })];
  }
  const data = parseMaybeXssiJson(text);
  if (data === undefined) throw new Error('capture is neither HTML nor JSON (with or without the )]}\' line)');
  if (Array.isArray(data) && Array.isArray(data[6]) && typeof (data[6] as unknown[])[11] === 'string') return [placeFromData(data, { query })];
  throw new Error('capture is JSON but not a place-details body (no place at [6]); a map search body belongs to /maps/search');
}
