/**
 * `/rentals-reviews` record (decision 24: what the home-rental site offers, snake_case, Unix-second
 * `*_timestamp`, ISO-8601 `*_datetime_utc`). A value the answer does not have is null (decision 22).
 */
import { nint, nstr, record, str, strs } from './fields.ts';

export const rentalsReviewRecord = record('RentalsReview', 'Home-rental review with next_page_cursor.', {
  query: str('The query item as given.'),
  listing_id: nstr('The listing\'s numeric id (as a string: ids exceed 2^53).'),
  review_id: nstr('The site\'s review id.'),
  review_text: nstr('Review text in its original language as served: HTML line breaks (<br/>) and entities kept.'),
  review_rating: nint('Stars, 1 to 5.'),
  author_name: nstr('The guest\'s first name.'),
  author_id: nstr('The guest\'s user id.'),
  review_timestamp: nint('When the review was posted, Unix seconds.'),
  review_datetime_utc: nstr('When the review was posted, ISO-8601 UTC.'),
  language: nstr('Language code of the review text, e.g. "fr".'),
  host_response: nstr('The host\'s public response, as served; null when none.'),
  host_response_timestamp: nint('When the host responded, Unix seconds, at the precision the site gives (it shows month and year: the first day of that month, 00:00 UTC); null when unknown.'),
  next_page_cursor: nstr('Cursor that continues after the chunk this review came from; null when there is no more. Give it as `cursor` to resume there.'),
  // What else the site offers.
  host_response_datetime_utc: nstr('host_response_timestamp as ISO-8601 UTC.'),
  host_response_date_text: nstr('The response date as the site words it, e.g. "May 2024".'),
  review_date_text: nstr('The review date as the site words it, e.g. "1 week ago", "August 2026".'),
  review_text_translated: nstr('The site\'s machine translation of the review into the request language, when it offers one.'),
  author_image: nstr('The guest\'s profile picture.'),
  author_location: nstr('Where the guest is from, as shown.'),
  host_name: nstr('First name of the host the review is about.'),
  host_id: nstr('User id of the host the review is about.'),
  review_highlight: nstr('The site\'s highlight label of the review (e.g. LENGTH_OF_STAY).'),
  review_photos: strs('URLs of photos attached to the review.'),
});
