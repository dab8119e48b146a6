/** Types of `/delivery-reviews`, derived from its declaration (no mirrored interfaces). */
import type { Static } from '@sinclair/typebox';
import type { deliveryReviewRecord } from '../../contract/records/delivery-reviews.ts';
import type { ParamsOf } from '../../contract/endpoint.ts';
import type { deliveryReviews } from '../../contract/endpoints/reviews.ts';

export type DeliveryReview = Static<typeof deliveryReviewRecord>;
export type DeliveryParams = ParamsOf<typeof deliveryReviews>;
export type DeliverySort = NonNullable<DeliveryParams['sort']>;
