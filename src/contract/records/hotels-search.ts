/**
 * `/hotels-search` records (decision 24): one hotel of a hotel-search answer. Prices are numbers in
 * the currency unit with an ISO 4217 `currency`; the site's own text is kept in `price_text`.
 */
import type { Static } from '@sinclair/typebox';
import { nbool, ncounts, nint, nnum, nstr, record, str, strs } from './fields.ts';

export const hotelsSearchRecord = record('HotelsSearchRecord', 'A hotel from a hotel-search result page.', {
  query: str('The query item as given.'),
  name: nstr('Hotel name.'),
  hotel_id: nstr("The site's entity key of the hotel (opens its own page: `link`)."),
  latitude: nnum('Latitude, degrees.'),
  longitude: nnum('Longitude, degrees.'),
  price: nnum('Lowest price per night shown, in `currency` units.'),
  total_price: nnum('Total for the whole stay as shown (when the site shows one), in `currency` units.'),
  currency: nstr('ISO 4217 code of the prices.'),
  price_text: nstr('The per-night price as the site wrote it, e.g. "$42".'),
  rating: nnum('Guest rating, 1 to 5.'),
  reviews: nint('Number of guest reviews.'),
  stars: nint('Hotel class (stars), 1 to 5.'),
  provider: nstr('Seller of the shown price, when the answer names one (a hotel page does; a result list does not).'),
  check_in_date: nstr('Check-in date of the prices, YYYY-MM-DD.'),
  check_out_date: nstr('Check-out date of the prices, YYYY-MM-DD.'),
  photos: strs('Photo URLs.'),
  amenities: strs('Amenities the hotel offers, by name (the ones whose id is known).'),
  link: nstr("The hotel's own page on the site."),
  next_page_cursor: nstr('Cursor that continues after the answer this hotel came from; null when there is no more. Give it as `cursor` to resume there.'),
  engine_id: nstr('Map feature id of the hotel (two hexadecimal parts joined by a colon).'),
  kgmid: nstr('Knowledge-graph id, e.g. /g/11pwh57g55.'),
  site_hotel_id: nstr("The site's numeric hotel id."),
  stars_text: nstr('Hotel class as written, e.g. "2-star hotel".'),
  reviews_per_score: ncounts('Number of reviews per score, "1" to "5".'),
  check_in_time: nstr('Check-in time as written.'),
  check_out_time: nstr('Check-out time as written.'),
  site: nstr("The hotel's own web site."),
  address: nstr('Street address (a hotel page has it; a result list does not).'),
  phone: nstr('Phone number (hotel page only).'),
  description: nstr('Short description (hotel page only).'),
  sponsored: nbool('True for a paid placement (the answer\'s sponsored block, listed first, fewer fields), false for an organic result.'),
});

export type HotelsSearchRecord = Static<typeof hotelsSearchRecord>;
