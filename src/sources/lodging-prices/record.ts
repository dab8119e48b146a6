/**
 * Types of `/lodging-prices`: the record type derives from its declared schema.
 */
import type { Static } from '@sinclair/typebox';
import type { lodgingPricesRecord } from '../../contract/records/lodging-prices.ts';

export type PriceRecord = Static<typeof lodgingPricesRecord>;

/** The stay a query asks prices for. */
export interface Stay {
  checkIn: string;
  checkOut: string;
  adults: number;
  children: number;
  rooms: number;
  /** True when the query named no dates (the documented default stay). */
  isDefault: boolean;
}

/** A record's fields of the hotel (the same on each of its rates). */
export type HotelFields = Pick<PriceRecord, 'query' | 'hotel_id' | 'hotel_name' | 'check_in_date' | 'check_out_date' | 'nights' | 'review_score' | 'reviews'
  | 'latitude' | 'longitude' | 'url' | 'default_stay' | 'stars' | 'city' | 'address'>;
/** A record's fields of one rate; `url` the rate's own page (its currency), null for the hotel's. */
export type RateFields = Omit<PriceRecord, keyof HotelFields> & { url: string | null };

/** A hotel and one of its rates → the record, its fields in the declared order (columns of a file). */
export function priceRecord(h: HotelFields, r: RateFields): PriceRecord {
  return {
    query: h.query, hotel_id: h.hotel_id, hotel_name: h.hotel_name, room_name: r.room_name, price: r.price, original_price: r.original_price,
    currency: r.currency, price_text: r.price_text, check_in_date: h.check_in_date, check_out_date: h.check_out_date, guests: r.guests,
    max_guests: r.max_guests, nights: h.nights, free_cancellation: r.free_cancellation, breakfast_included: r.breakfast_included,
    review_score: h.review_score, reviews: h.reviews, latitude: h.latitude, longitude: h.longitude, url: r.url ?? h.url, default_stay: h.default_stay,
    room_id: r.room_id, block_id: r.block_id, stars: h.stars, city: h.city, address: h.address, no_price_reason: r.no_price_reason,
  };
}

/** The one record of a hotel shown with no rate: null rate fields and why (not billed: ./adapter.ts). */
export function ratelessOf(h: HotelFields, guests: number | null, reason: NonNullable<PriceRecord['no_price_reason']>): PriceRecord {
  return priceRecord(h, {
    room_name: null, price: null, original_price: null, currency: null, price_text: null, guests, max_guests: null,
    free_cancellation: null, breakfast_included: null, url: null, room_id: null, block_id: null, no_price_reason: reason,
  });
}
