/** Types of `/bizdir-reviews`, derived from its declaration (no mirrored interfaces). */
import type { Static } from '@sinclair/typebox';
import type { bizdirReviewRecord } from '../../contract/records/bizdir-reviews.ts';

export type BizdirReview = Static<typeof bizdirReviewRecord>;
export type BizdirSort = 'relevance_desc' | 'date_desc' | 'date_asc' | 'rating_desc' | 'rating_asc' | 'elites_desc';

export interface BizdirParams {
  limit?: number;
  cursor?: string;
  sort?: BizdirSort;
  cutoff?: number;
}
