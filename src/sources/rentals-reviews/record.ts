/** Types of `/rentals-reviews`, derived from its declaration (no mirrored interfaces). */
import type { Static } from '@sinclair/typebox';
import type { rentalsReviewRecord } from '../../contract/records/rentals-reviews.ts';

export type RentalsReview = Static<typeof rentalsReviewRecord>;
export type RentalsSort = 'MOST_RECENT' | 'RATING_DESC' | 'RATING_ASC';

export interface RentalsParams {
  limit?: number;
  cursor?: string;
  sort?: RentalsSort;
  cutoff?: number;
}
