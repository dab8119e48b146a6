/**
 * `/lodging-prices` records (decision 24): one offered room or rate of a hotel for one stay. Prices
 * are numbers in the currency unit with an ISO 4217 `currency`; the site's own text is `price_text`.
 * A hotel the answer shows with no rate (no dates asked, sold out) is one record with a null price
 * and `no_price_reason` saying why; such a record is not billed (src/sources/lodging-prices/adapter.ts).
 */
import type { Static } from '@sinclair/typebox';
import { nbool, nint, nnum, nstr, record, str } from './fields.ts';
import { Type } from '../dsl.ts';

/** Why a hotel's record has no price: the site gave the hotel but no rate to read. */
export const NO_PRICE_REASONS = ['no_dates', 'sold_out', 'no_rate'] as const;

export const lodgingPricesRecord = record('LodgingPricesRecord', 'One offered room or rate of a hotel for one stay.', {
  query: str('The query item as given.'),
  hotel_id: nstr("The site's hotel id."),
  hotel_name: nstr('Hotel name.'),
  room_name: nstr('Room (unit) name.'),
  price: nnum('Price of the whole stay for this room or rate, in `currency` units.'),
  original_price: nnum('Price before the discount shown, when the site strikes one through, in `currency` units.'),
  currency: nstr('ISO 4217 code of the prices.'),
  price_text: nstr('The price as the site wrote it, e.g. "US$339.86".'),
  check_in_date: nstr('Check-in date of the stay, YYYY-MM-DD.'),
  check_out_date: nstr('Check-out date of the stay, YYYY-MM-DD.'),
  guests: nint('Adults the price is for.'),
  max_guests: nint('Most people the room takes, when the page states it.'),
  nights: nint('Nights of the stay.'),
  free_cancellation: nbool('Free cancellation offered for this rate.'),
  breakfast_included: nbool('Breakfast included in this rate.'),
  review_score: nnum('Guest review score, 1 to 10.'),
  reviews: nint('Number of guest reviews.'),
  latitude: nnum('Latitude, degrees.'),
  longitude: nnum('Longitude, degrees.'),
  url: nstr("The hotel's page for this stay."),
  default_stay: Type.Boolean({ description: 'True when the query named no dates and the default stay was asked: check-in tomorrow (UTC), one night, two adults.' }),
  room_id: nstr("The site's room id."),
  block_id: nstr("The site's rate (block) id."),
  stars: nnum('Hotel class or the site\'s own quality rating, 1 to 5.'),
  city: nstr('City.'),
  address: nstr('Street address.'),
  no_price_reason: Type.Union([...NO_PRICE_REASONS.map((r) => Type.Literal(r)), Type.Null()], {
    description: 'Null for a rate. For a hotel the answer shows without any rate (one record, room and price fields null, not billed): '
      + '`no_dates` the answer was for no stay (the site prices only dated stays: give checkin and checkout), '
      + '`sold_out` the site says the hotel is sold out for the stay, `no_rate` the hotel is shown for the stay with no rate.',
  }),
});

export type LodgingPricesRecord = Static<typeof lodgingPricesRecord>;
