/**
 * `trawl parse /lodging-prices <file>`: a saved answer → rate records. Accepted as served: a hotel
 * page (room table), a search results page (Apollo store), a `FullSearch` GraphQL answer.
 * The stay is unknown for a saved answer: dates and nights are null. A hotel shown with no rate is
 * one record with a null price and `no_price_reason` (an answer for no stay: `no_dates`).
 */
import { isHotelPage, isRatelessHotelPage, pageRecords, ratelessRecord } from './page.ts';
import { searchRecords } from './parse.ts';
import type { PriceRecord } from './record.ts';

/** @example parseCapture(readFileSync('hotel.html', 'utf8')).length */
export function parseCapture(text: string): PriceRecord[] {
  if (isHotelPage(text)) return pageRecords(text, '', null, null);
  const out = searchRecords(text, '', null, null);
  if (out) return out;
  if (isRatelessHotelPage(text)) return [ratelessRecord(text, '', null, null)];
  throw new Error('lodging-prices: expected a hotel page with its room table, a search results page with its Apollo store, or a FullSearch GraphQL answer {"data": ...}');
}
