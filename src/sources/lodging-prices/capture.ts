/**
 * `trawl parse /lodging-prices <file>`: a saved answer → rate records. Accepted as served: a hotel
 * page (room table), a search results page (Apollo store), a `FullSearch` GraphQL answer.
 * The stay is unknown for a saved answer: dates and nights are null.
 */
import { isHotelPage, pageRecords } from './page.ts';
import { searchRecords } from './parse.ts';
import type { PriceRecord } from './record.ts';

/** @example parseCapture(readFileSync('hotel.html', 'utf8')).length */
export function parseCapture(text: string): PriceRecord[] {
  if (isHotelPage(text)) return pageRecords(text, '', null, null);
  const out = searchRecords(text, '', null, null);
  if (out) return out;
  throw new Error('lodging-prices: expected a hotel page with its room table, a search results page with its Apollo store, or a FullSearch GraphQL answer {"data": ...}');
}
