/** Review, comment and post endpoints (interface 4.3). */
import { defineEndpoint, type DataEndpoint } from '../endpoint.ts';
import { int, oneOf, str } from '../dsl.ts';
import { FULL_SET, language, region } from '../shared.ts';
import { forumCommentRecord } from '../records/forum-comments.ts';
import { bizdirReviewRecord } from '../records/bizdir-reviews.ts';
import { rentalsReviewRecord } from '../records/rentals-reviews.ts';
import { launchsiteReviewRecord } from '../records/launchsite-reviews.ts';
import { deliveryReviewRecord } from '../records/delivery-reviews.ts';
import { shortvideoCommentRecord } from '../records/shortvideo-comments.ts';
import { networkPostRecord } from '../records/network-posts.ts';

const limit = int({ min: 1, max: 100_000, def: 100, doc: 'Items per query. Also read as `perQuery`, `limit_per_query` or `reviewsLimit`.' });
/** Names real clients send for "items per query" (docs/parameter-aliases.md). */
const LIMIT_ALIASES = { perQuery: 'limit', limit_per_query: 'limit', reviewsLimit: 'limit' };
const cutoff = int({ min: 0, zeroIsAbsent: true, doc: 'Oldest timestamp kept (Unix seconds); overrides sort (newest first).' });
const cursor = str({ doc: 'The next_page_cursor of the previous chunk.' });
const NO_FORMAT = FULL_SET.filter((n) => n !== 'format');

export const bizdirReviews = defineEndpoint({
  path: '/bizdir-reviews', family: 'reviews', summary: 'Business directory reviews.', queryDoc: 'Directory business links or ids.',
  params: { limit, cursor, sort: oneOf(['relevance_desc', 'date_desc', 'date_asc', 'rating_desc', 'rating_asc', 'elites_desc'] as const, { def: 'relevance_desc' }), cutoff },
  paramAliases: LIMIT_ALIASES,
  shared: FULL_SET, record: bizdirReviewRecord, unit: 'review', service: 'bizdir_reviews_service', emptyCostsOne: true,
});

export const launchsiteReviews = defineEndpoint({
  path: '/launchsite-reviews', family: 'reviews', summary: 'Product-launch site reviews.', queryDoc: 'Product page links or ids.',
  params: { limit, cursor, sort: oneOf(['BEST', 'LATEST', 'FAVORABLE', 'CRITICAL'] as const, { def: 'BEST' }), cutoff, language, region },
  paramAliases: LIMIT_ALIASES,
  shared: FULL_SET, record: launchsiteReviewRecord, unit: 'review', service: 'launchsite_reviews_service', emptyCostsOne: true,
});

export const rentalsReviews = defineEndpoint({
  path: '/rentals-reviews', family: 'reviews', summary: 'Home-rental reviews.', queryDoc: 'Accommodation links or ids.',
  params: { limit, cursor, sort: oneOf(['MOST_RECENT', 'RATING_DESC', 'RATING_ASC'] as const, { def: 'MOST_RECENT' }), cutoff },
  paramAliases: LIMIT_ALIASES,
  shared: FULL_SET, record: rentalsReviewRecord, unit: 'review', service: 'rentals_reviews_service', emptyCostsOne: true,
});

export const forumComments = defineEndpoint({
  path: '/forum-comments', family: 'reviews', summary: 'Discussion-site comments.', queryDoc: 'Post URLs.',
  params: {
    sort: oneOf(['best', 'top', 'new', 'controversial', 'old', 'qa'] as const, { def: 'best' }),
    limit: int({ min: 1, max: 10_000, doc: 'Extension (not in the interface): comments per query. Without it the whole thread is returned, up to the operator cap (FORUM_COMMENTS_MAX, 10,000 comments per query by default).' }),
  },
  shared: NO_FORMAT, record: forumCommentRecord, unit: 'comment', service: 'forum_comments_service',
});

export const deliveryReviews = defineEndpoint({
  path: '/delivery-reviews', family: 'reviews', summary: 'Food-delivery reviews.', queryDoc: 'Store or menu-item URLs, or store ids.',
  params: { limit, cursor, sort: oneOf(['highest_rated', 'lowest_rated', 'newest', 'oldest'] as const, { def: 'highest_rated' }), cutoff },
  paramAliases: LIMIT_ALIASES,
  shared: FULL_SET, record: deliveryReviewRecord, unit: 'review', service: 'delivery_reviews_service', emptyCostsOne: true,
});

export const shortvideoComments = defineEndpoint({
  path: '/shortvideo-comments', family: 'reviews', summary: 'Short-video comments.', queryDoc: 'Video links or ids.',
  params: { limit_per_query: int({ min: 1, max: 100_000, def: 100, doc: 'Comments per video. Also read as `perQuery` or `limit`.' }), cursor },
  paramAliases: { perQuery: 'limit_per_query', limit: 'limit_per_query' },
  shared: FULL_SET, record: shortvideoCommentRecord, unit: 'comment', service: 'shortvideo_comments_service', answers204: true,
});

export const networkPosts = defineEndpoint({
  path: '/network-posts', family: 'reviews', summary: 'Professional-network company posts.', queryDoc: 'Company URLs or ids.',
  params: { limit, cursor }, paramAliases: LIMIT_ALIASES, shared: FULL_SET, record: networkPostRecord, unit: 'post', service: 'network_posts_service', answers204: true,
});

export const reviewEndpoints: DataEndpoint[] = [bizdirReviews, launchsiteReviews, rentalsReviews, forumComments, deliveryReviews, shortvideoComments, networkPosts];
