/** Types of `/launchsite-reviews`, derived from its declaration (no mirrored interfaces). */
import type { Static } from '@sinclair/typebox';
import type { launchsiteReviewRecord } from '../../contract/records/launchsite-reviews.ts';
import type { ParamsOf } from '../../contract/endpoint.ts';
import type { launchsiteReviews } from '../../contract/endpoints/reviews.ts';

export type LaunchsiteReview = Static<typeof launchsiteReviewRecord>;
export type LaunchsiteParams = ParamsOf<typeof launchsiteReviews>;
export type LaunchsiteSort = NonNullable<LaunchsiteParams['sort']>;
