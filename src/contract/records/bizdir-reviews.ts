/**
 * `/bizdir-reviews` record: interface 2.4 exactly, plus the fields issue 11 asks for and what the
 * directory itself offers (decision 24: snake_case, Unix-second `*_timestamp`, ISO-8601
 * `*_datetime_utc`). A value the page does not have is null (decision 22).
 */
import { Type, nullable } from '../dsl.ts';

const S = Type.String();
const NI = nullable(Type.Integer());
const ns = (description: string) => Type.Union([Type.String(), Type.Null()], { description });
const ni = (description: string) => Type.Union([Type.Integer(), Type.Null()], { description });

/** One public reply of the business owner to a review. */
export const bizdirOwnerReply = Type.Object({
  reply_text: ns('Reply text as served (line breaks and entities kept).'),
  reply_timestamp: ni('When the reply was posted, Unix seconds.'),
  reply_datetime_utc: ns('When the reply was posted, ISO-8601 UTC.'),
  replier_name: ns('Name of the owner or manager who replied.'),
}, { additionalProperties: true, description: 'An owner reply.' });

export const bizdirReviewRecord = Type.Object({
  query: S,
  business_name: ns('Name of the business.'),
  review_rating: ni('Stars, 1 to 5.'),
  review_text: ns('Review text as the site serves it: its line breaks and HTML entities are kept, nothing is decoded or stripped.'),
  review_photos: Type.Array(S, { description: 'URLs of the photos attached to the review (full size).' }),
  review_tags: Type.Array(S, { description: 'Badges the site shows on the review, e.g. "Elite 24", "1 check-in", "First to Review".' }),
  owner_replies: Type.Array(bizdirOwnerReply, { description: 'Public replies of the business to this review.' }),
  review_id: ns('The site\'s review id (encid).'),
  business_id: ns('The site\'s business id (encid).'),
  author_id: ns('The reviewer\'s user id (encid).'),
  author_title: ns('The reviewer\'s display name, e.g. "Lizzie G.".'),
  author_link: ns('The reviewer\'s profile page.'),
  review_timestamp: ni('When the review was posted, Unix seconds.'),
  review_datetime_utc: ns('When the review was posted, ISO-8601 UTC.'),
  review_likes: ni('How many readers marked the review helpful ("Helpful" reaction, or "Useful" votes on older answers).'),
  language: ns('Language code of the review text, e.g. "en".'),
  next_page_cursor: ns('Cursor that continues after the chunk this review came from; null when there is no more (decision 23).'),
  // What else the site offers.
  business_alias: ns('The business page slug, e.g. "vons-1000-spirits-seattle-4".'),
  review_link: ns('Link to this review on the business page.'),
  review_local_datetime: ns('When the review was posted, in the business\'s local time with its offset.'),
  review_reactions: nullable(Type.Record(Type.String(), Type.Integer(), { description: 'Reaction type (lower case, e.g. helpful, thanks, love_this, oh_no) → count.' })),
  review_feedback: nullable(Type.Object({ useful: NI, funny: NI, cool: NI }, { additionalProperties: true, description: 'Useful / funny / cool votes.' })),
  author_image: ns('The reviewer\'s profile photo.'),
  author_location: ns('The reviewer\'s home town as shown, e.g. "Seattle, WA".'),
  author_reviews_count: ni('Reviews the author has written.'),
  author_friends_count: ni('Friends of the author.'),
  author_photos_count: ni('Business photos the author has posted.'),
  author_elite_year: ns('The author\'s latest Elite year as the site abbreviates it, e.g. "24"; null when not Elite.'),
}, {
  $id: 'BizdirReview', additionalProperties: true,
  description: 'Business directory review (interface 2.4) with the reviewer, dates, likes, language and next_page_cursor (decision 23).',
});
