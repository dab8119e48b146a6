/**
 * `/realestate-search` records (decision 24): one property of a real-estate search. Prices are
 * numbers in the currency unit with an ISO 4217 `currency`; the site's own text is `price_text`.
 */
import type { Static } from '@sinclair/typebox';
import { nbool, nint, nnum, nstr, record, str } from './fields.ts';

export const realestateSearchRecord = record('RealestateSearchRecord', 'A property from a real-estate search.', {
  query: str('The query item as given.'),
  property_id: nstr("The site's property id (a building id for a rental building without one)."),
  status: nstr('Listing status as the site codes it: FOR_SALE, FOR_RENT, RECENTLY_SOLD, ...'),
  address: nstr('Full address line.'),
  street: nstr('Street address.'),
  city: nstr('City.'),
  state: nstr('State (two letters).'),
  postal_code: nstr('ZIP code.'),
  latitude: nnum('Latitude, degrees.'),
  longitude: nnum('Longitude, degrees.'),
  price: nnum('Asking price, monthly rent or sold price, in `currency` units.'),
  currency: nstr('ISO 4217 code of the prices.'),
  price_text: nstr('The price as the site wrote it, e.g. "$2,450/mo".'),
  beds: nnum('Bedrooms.'),
  baths: nnum('Bathrooms.'),
  area_sqft: nnum('Living area, square feet.'),
  lot_area_sqft: nnum('Lot area, square feet (acres converted).'),
  home_type: nstr('SINGLE_FAMILY, CONDO, MULTI_FAMILY, LOT, ...'),
  estimate: nnum("The site's value estimate, in `currency` units."),
  rent_estimate: nnum("The site's monthly rent estimate, in `currency` units."),
  days_on_site: nint('Days the listing has been on the site.'),
  photo: nstr('Main photo URL.'),
  url: nstr("The property's page."),
  status_text: nstr('Status as written, e.g. "House for sale".'),
  broker_name: nstr('Listing brokerage.'),
  is_building: nbool('True for a building or community listed once for many units (then `beds`, `baths`, `area_sqft` and `price` are its smallest or cheapest unit\'s, and the ranges below span its units); false for a single home.'),
  unit_count: nint('Units the building lists (available or shown), when it says.'),
  min_beds: nnum("Fewest bedrooms of the building's units (0 = studio)."),
  max_beds: nnum("Most bedrooms of the building's units."),
  min_baths: nnum("Fewest bathrooms of the building's units."),
  max_baths: nnum("Most bathrooms of the building's units."),
  min_price: nnum("Lowest price (or rent) of the building's units, in `currency` units."),
  max_price: nnum("Highest price (or rent) of the building's units, in `currency` units."),
});

export type RealestateSearchRecord = Static<typeof realestateSearchRecord>;
