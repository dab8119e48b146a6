/** Types of `/bizdir-reviews`, derived from its declaration (no mirrored interfaces). */
import type { Static } from '@sinclair/typebox';
import type { bizdirReviewRecord } from '../../contract/records/bizdir-reviews.ts';
import type { ParamsOf } from '../../contract/endpoint.ts';
import type { bizdirReviews } from '../../contract/endpoints/reviews.ts';

export type BizdirReview = Static<typeof bizdirReviewRecord>;
export type BizdirParams = ParamsOf<typeof bizdirReviews>;
export type BizdirSort = NonNullable<BizdirParams['sort']>;
