/**
 * `/delivery` record (decision 24): one menu item of a food-delivery store. Prices are numbers in
 * the currency unit with an ISO 4217 `currency`; the site's own text is `price_text`. A value the
 * answer does not have is null (decision 22).
 */
import type { Static } from '@sinclair/typebox';
import { Type } from '../dsl.ts';
import { nbool, nint, nnum, nstr, record, str } from './fields.ts';

const option = Type.Object({
  list: nstr('The option list it belongs to ("Choose your salsa").'),
  name: str('The choice.'),
  price: nnum('What it adds to the price, in `currency` units (0 when free).'),
  required: nbool('The list must be chosen from.'),
});

export const deliveryRecord = record('DeliveryMenuItem', 'One menu item of a food-delivery store.', {
  query: str('The query item as given.'),
  store_id: nstr("The site's store id (digits, as a string)."),
  store_name: nstr("The store's name."),
  store_address: nstr("The store's address as the site shows it."),
  store_phone: nstr("The store's phone number as the site shows it."),
  store_rating: nnum("The store's average rating, 1 to 5."),
  store_reviews: nint("Number of the store's ratings (a lower bound when the site shows only e.g. \"2,300+\")."),
  item_id: nstr("The site's menu-item id."),
  item_name: nstr('Item name.'),
  description: nstr('Item description.'),
  category: nstr('Menu category (section) the item is listed under.'),
  price: nnum('Price in `currency` units.'),
  currency: nstr('ISO 4217 code of the price.'),
  image: nstr('Item photo URL.'),
  rating: nint('Share of customers who liked the item, percent (the site rates items by thumbs up, e.g. "92%").'),
  ratings_count: nint('Number of item ratings behind `rating`.'),
  is_popular: nbool('The site marks the item popular or most ordered (a "Most Ordered" / "Popular" list or badge).'),
  // What else the site offers.
  price_text: nstr('The price as the site wrote it, e.g. "$12.99".'),
  item_url: nstr("The item's page on the site."),
  store_url: nstr("The store's page on the site."),
  store_latitude: nnum("The store's latitude, degrees."),
  store_longitude: nnum("The store's longitude, degrees."),
  menu_id: nstr("The site's menu id, when the answer names it."),
  options: Type.Union([Type.Array(option), Type.Null()], { description: "The item's choices (sizes, sides, extras), from its item page; null where the answer does not list them (the store page feed)." }),
});

export type DeliveryRecord = Static<typeof deliveryRecord>;
