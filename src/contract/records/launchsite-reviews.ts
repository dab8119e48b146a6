/**
 * `/launchsite-reviews` record (decision 24: what the product-launch site offers, snake_case,
 * Unix-second `*_timestamp`, ISO-8601 `*_datetime_utc`). A value the answer does not have is null
 * (decision 22).
 */
import { nint, nnum, nstr, record, str } from './fields.ts';

export const launchsiteReviewRecord = record('LaunchsiteReview', 'Product-launch site review with next_page_cursor.', {
  query: str('The query item as given.'),
  product_id: nstr('The site\'s product id.'),
  product_name: nstr('The product\'s name.'),
  review_id: nstr('The site\'s review id.'),
  review_rating: nint('Stars, 1 to 5; null for reviews of the older kind that carry only a sentiment.'),
  review_text: nstr('The review text as served (the site\'s HTML kept).'),
  sentiment: nstr('The reviewer\'s verdict as the site labels it, lower case (e.g. "positive", "neutral", "negative"); null when the review has none.'),
  author_name: nstr('The reviewer\'s display name.'),
  author_username: nstr('The reviewer\'s username (their profile is /@<username>).'),
  author_id: nstr('The reviewer\'s user id.'),
  review_timestamp: nint('When the review was posted, Unix seconds.'),
  review_datetime_utc: nstr('When the review was posted, ISO-8601 UTC.'),
  votes_count: nint('Helpful votes the review received.'),
  review_link: nstr('Link to the review on the site.'),
  next_page_cursor: nstr('Cursor that continues after the chunk this review came from; null when there is no more. Give it as `cursor` to resume there.'),
  // What else the site offers.
  product_slug: nstr('The product\'s slug (its page is /products/<slug>).'),
  product_rating: nnum('The product\'s average review rating, as the answer gives it.'),
  product_reviews_count: nint('How many reviews the product has, as the answer gives it.'),
  review_pros: nstr('What the reviewer liked, when the review has that part (older reviews).'),
  review_cons: nstr('What the reviewer disliked, when the review has that part (older reviews).'),
  comments_count: nint('Replies to the review.'),
  author_headline: nstr('The reviewer\'s headline, e.g. their role.'),
  author_image: nstr('The reviewer\'s avatar.'),
  author_link: nstr('The reviewer\'s profile link.'),
});
