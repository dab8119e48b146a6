/**
 * `/rentals-reviews` record (decision 24: what the home-rental site offers, snake_case, Unix-second
 * `*_timestamp`, ISO-8601 `*_datetime_utc`). A value the answer does not have is null (decision 22).
 */
import { Type } from '../dsl.ts';

const S = Type.String();
const ns = (description: string) => Type.Union([Type.String(), Type.Null()], { description });
const ni = (description: string) => Type.Union([Type.Integer(), Type.Null()], { description });

export const rentalsReviewRecord = Type.Object({
  query: S,
  listing_id: ns('The listing\'s numeric id (as a string: ids exceed 2^53).'),
  review_id: ns('The site\'s review id.'),
  review_text: ns('Review text in its original language as served: HTML line breaks (<br/>) and entities kept.'),
  review_rating: ni('Stars, 1 to 5.'),
  author_name: ns('The guest\'s first name.'),
  author_id: ns('The guest\'s user id.'),
  review_timestamp: ni('When the review was posted, Unix seconds.'),
  review_datetime_utc: ns('When the review was posted, ISO-8601 UTC.'),
  language: ns('Language code of the review text, e.g. "fr".'),
  host_response: ns('The host\'s public response, as served; null when none.'),
  host_response_timestamp: ni('When the host responded, Unix seconds, at the precision the site gives (it shows month and year: the first day of that month, 00:00 UTC); null when unknown.'),
  next_page_cursor: ns('Cursor that continues after the chunk this review came from; null when there is no more (decision 23).'),
  // What else the site offers.
  host_response_datetime_utc: ns('host_response_timestamp as ISO-8601 UTC.'),
  host_response_date_text: ns('The response date as the site words it, e.g. "May 2024".'),
  review_date_text: ns('The review date as the site words it, e.g. "1 week ago", "August 2026".'),
  review_text_translated: ns('The site\'s machine translation of the review into the request language, when it offers one.'),
  author_image: ns('The guest\'s profile picture.'),
  author_location: ns('Where the guest is from, as shown.'),
  host_name: ns('First name of the host the review is about.'),
  host_id: ns('User id of the host the review is about.'),
  review_highlight: ns('The site\'s highlight label of the review (e.g. LENGTH_OF_STAY).'),
  review_photos: Type.Array(S, { description: 'URLs of photos attached to the review.' }),
}, {
  $id: 'RentalsReview', additionalProperties: true,
  description: 'Home-rental review (decision 24) with next_page_cursor (decision 23).',
});
