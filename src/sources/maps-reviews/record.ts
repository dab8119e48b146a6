/**
 * Records of `/maps/reviews` (decision 24): one element per place, its reviews in `reviews_data`.
 * Parsing happens page by page, so `parse` emits intermediate items (a place header, reviews) and
 * `finish` folds them into elements.
 */
import type { ParamsOf } from '../../contract/endpoint.ts';
import type { mapsReviews } from '../../contract/endpoints/maps.ts';
import type { NoResult } from '../_kit/adapter.ts';
import type { PlaceSummary } from './place.ts';

/** A query whose place could not be found: billed as one item (decision 20). */
export { isNoResult, type NoResult } from '../_kit/adapter.ts';

/** `cutoff` forces `newest` and paging stops at the first older review; `cutoffRating` stops a
 *  highest/lowest order at the first rating below/above it; `lastPaginationId` resumes at a page. */
export type ReviewsParams = ParamsOf<typeof mapsReviews>;
export type ReviewSort = NonNullable<ReviewsParams['sort']>;

export interface ReviewRecord {
  review_id: string | null;
  author_id: string | null;
  author_title: string | null;
  author_link: string | null;
  author_image: string | null;
  review_text: string | null;
  review_rating: number | null;
  /** Unix seconds. */
  review_timestamp: number | null;
  /** ISO-8601 UTC, e.g. `2026-02-27T10:02:02Z`. */
  review_datetime_utc: string | null;
  review_likes: number | null;
  review_link: string | null;
  review_img_urls: string[];
  owner_answer: string | null;
  owner_answer_timestamp: number | null;
  owner_answer_timestamp_datetime_utc: string | null;
  /** Page token that continues after the page this review came from (null: none left). */
  review_pagination_id: string | null;
  // Extras the source offers (allowed by decision 10/24).
  review_translated_text: string | null;
  review_language: string | null;
  review_updated_timestamp: number | null;
  owner_answer_translated: string | null;
  review_source: string | null;
}

/** One `/maps/reviews` element. */
export interface ReviewsElement extends PlaceSummary {
  query: string;
  reviews_data: ReviewRecord[];
}

/** Intermediate items between `parse` and `finish`. */
export type PlaceItem = { item: 'place'; key: string; place: PlaceSummary };
export type ReviewItem = { item: 'review'; key: string; review: ReviewRecord };
export type ReviewsItem = PlaceItem | ReviewItem;
export type ReviewsOutput = ReviewsElement | NoResult;
