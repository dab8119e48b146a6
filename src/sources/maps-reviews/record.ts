/**
 * Records of `/maps/reviews` (decision 24): one element per place, its reviews in `reviews_data`.
 * Parsing happens page by page, so `parse` emits intermediate items (a place header, reviews) and
 * `finish` folds them into elements.
 */
import type { ParamsOf } from '../../contract/endpoint.ts';
import type { mapsReviews } from '../../contract/endpoints/maps.ts';
import type { NoResult } from '../_kit/adapter.ts';
import type { Static } from '@sinclair/typebox';
import type { mapsReviewRecord, mapsReviewsRecord } from '../../contract/records/maps-reviews.ts';

/** A query whose place could not be found: billed as one item (decision 20). */
export { isNoResult, type NoResult } from '../_kit/adapter.ts';

/** `cutoff` forces `newest` and paging stops at the first older review; `cutoffRating` stops a
 *  highest/lowest order at the first rating below/above it; `lastPaginationId` resumes at a page. */
export type ReviewsParams = ParamsOf<typeof mapsReviews>;
export type ReviewSort = NonNullable<ReviewsParams['sort']>;

export type ReviewRecord = Static<typeof mapsReviewRecord>;

/** One `/maps/reviews` element. */
export type ReviewsElement = Static<typeof mapsReviewsRecord>;

/** Place fields of an element (the place record's), minus `query`. */
export type PlaceSummary = Omit<ReviewsElement, 'query' | 'reviews_data'>;

/** Intermediate items between `parse` and `finish`. */
export type PlaceItem = { item: 'place'; key: string; place: PlaceSummary };
export type ReviewItem = { item: 'review'; key: string; review: ReviewRecord };
export type ReviewsItem = PlaceItem | ReviewItem;
export type ReviewsOutput = ReviewsElement | NoResult;
