/**
 * `/delivery-reviews` record (decision 24: what the food-delivery site offers, snake_case,
 * Unix-second `*_timestamp`, ISO-8601 `*_datetime_utc`). A value the answer does not have is null
 * (decision 22).
 */
import { nbool, nint, nnum, nstr, record, str, strs } from './fields.ts';

export const deliveryReviewRecord = record('DeliveryReview', 'Food-delivery store review with next_page_cursor.', {
  query: str('The query item as given.'),
  store_id: nstr('The site\'s store id (digits, as a string).'),
  store_name: nstr('The store\'s name.'),
  review_id: nstr('The site\'s review id.'),
  author_name: nstr('The reviewer\'s display name as shown (usually first name and initial).'),
  review_rating: nint('Stars, 1 to 5.'),
  review_text: nstr('The review text as served.'),
  review_timestamp: nint('When the review was posted, Unix seconds (day precision when the site shows only a date).'),
  review_datetime_utc: nstr('When the review was posted, ISO-8601 UTC.'),
  ordered_items: strs('What the reviewer ordered, as the review card lists it.'),
  next_page_cursor: nstr('Cursor that continues after the chunk this review came from; null when there is no more. Give it as `cursor` to resume there.'),
  // What else the site offers.
  author_id: nstr('The reviewer\'s id, when the answer gives one.'),
  author_reviews_count: nint('How many ratings the reviewer has given, when shown.'),
  review_date_text: nstr('The review date as the site words it, e.g. "10/24/26" or "2 days ago".'),
  review_experience: nstr('How the order was placed, as labelled (e.g. "DoorDash order").'),
  review_verified: nbool('The site marks the review as from a verified order.'),
  merchant_response: nstr('The store\'s public reply, when there is one.'),
  store_rating: nnum('The store\'s average rating, when the answer gives it.'),
  store_ratings_count: nint('How many ratings the store has, when the answer gives it.'),
});
