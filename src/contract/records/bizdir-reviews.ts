/**
 * `/bizdir-reviews` record: interface 2.4 exactly, plus the fields issue 11 asks for and what the
 * directory itself offers (decision 24: snake_case, Unix-second `*_timestamp`, ISO-8601
 * `*_datetime_utc`). A value the page does not have is null (decision 22).
 */
import { Type } from '../dsl.ts';
import { ncounts, nint, nstr, record, str, strs } from './fields.ts';

/** One public reply of the business owner to a review. */
export const bizdirOwnerReply = Type.Object({
  reply_text: nstr('Reply text as served (line breaks and entities kept).'),
  reply_timestamp: nint('When the reply was posted, Unix seconds.'),
  reply_datetime_utc: nstr('When the reply was posted, ISO-8601 UTC.'),
  replier_name: nstr('Name of the owner or manager who replied.'),
}, { additionalProperties: true, description: 'An owner reply.' });

export const bizdirReviewRecord = record('BizdirReview', 'Business directory review with the reviewer, dates, likes, language and next_page_cursor.', {
  query: str('The query item as given.'),
  business_name: nstr('Name of the business.'),
  review_rating: nint('Stars, 1 to 5.'),
  review_text: nstr('Review text as the site serves it: its line breaks and HTML entities are kept, nothing is decoded or stripped.'),
  review_photos: strs('URLs of the photos attached to the review (full size).'),
  review_tags: strs('Badges the site shows on the review, e.g. "Elite 24", "1 check-in", "First to Review".'),
  owner_replies: Type.Array(bizdirOwnerReply, { description: 'Public replies of the business to this review.' }),
  review_id: nstr('The site\'s review id (encid).'),
  business_id: nstr('The site\'s business id (encid).'),
  author_id: nstr('The reviewer\'s user id (encid).'),
  author_title: nstr('The reviewer\'s display name, e.g. "Lizzie G.".'),
  author_link: nstr('The reviewer\'s profile page.'),
  review_timestamp: nint('When the review was posted, Unix seconds.'),
  review_datetime_utc: nstr('When the review was posted, ISO-8601 UTC.'),
  review_likes: nint('How many readers marked the review helpful ("Helpful" reaction, or "Useful" votes on older answers).'),
  language: nstr('Language code of the review text, e.g. "en".'),
  next_page_cursor: nstr('Cursor that continues after the chunk this review came from; null when there is no more. Give it as `cursor` to resume there.'),
  // What else the site offers.
  business_alias: nstr('The business page slug, e.g. "vons-1000-spirits-seattle-4".'),
  review_link: nstr('Link to this review on the business page.'),
  review_local_datetime: nstr('When the review was posted, in the business\'s local time with its offset.'),
  review_reactions: ncounts('Reaction type (lower case, e.g. helpful, thanks, love_this, oh_no) → count.'),
  review_feedback: Type.Union([Type.Object({ useful: nint('Useful votes.'), funny: nint('Funny votes.'), cool: nint('Cool votes.') }, { additionalProperties: true }), Type.Null()], { description: 'Useful / funny / cool votes.' }),
  author_image: nstr('The reviewer\'s profile photo.'),
  author_location: nstr('The reviewer\'s home town as shown, e.g. "Seattle, WA".'),
  author_reviews_count: nint('Reviews the author has written.'),
  author_friends_count: nint('Friends of the author.'),
  author_photos_count: nint('Business photos the author has posted.'),
  author_elite_year: nstr('The author\'s latest Elite year as the site abbreviates it, e.g. "24"; null when not Elite.'),
});
