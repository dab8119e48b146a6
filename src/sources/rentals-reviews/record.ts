/** Types of `/rentals-reviews`, derived from its declaration (no mirrored interfaces). */
import type { Static } from '@sinclair/typebox';
import type { rentalsReviewRecord } from '../../contract/records/rentals-reviews.ts';
import type { ParamsOf } from '../../contract/endpoint.ts';
import type { rentalsReviews } from '../../contract/endpoints/reviews.ts';

export type RentalsReview = Static<typeof rentalsReviewRecord>;
export type RentalsParams = ParamsOf<typeof rentalsReviews>;
export type RentalsSort = NonNullable<RentalsParams['sort']>;
