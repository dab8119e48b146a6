/** Types of `/delivery-reviews`, derived from its declaration (no mirrored interfaces). */
import type { Static } from '@sinclair/typebox';
import type { deliveryReviewRecord } from '../../contract/records/delivery-reviews.ts';

export type DeliveryReview = Static<typeof deliveryReviewRecord>;
export type DeliverySort = 'highest_rated' | 'lowest_rated' | 'newest' | 'oldest';

export interface DeliveryParams {
  limit?: number;
  cursor?: string;
  sort?: DeliverySort;
  cutoff?: number;
}
