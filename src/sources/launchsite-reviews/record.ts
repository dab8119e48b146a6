/** Types of `/launchsite-reviews`, derived from its declaration (no mirrored interfaces). */
import type { Static } from '@sinclair/typebox';
import type { launchsiteReviewRecord } from '../../contract/records/launchsite-reviews.ts';

export type LaunchsiteReview = Static<typeof launchsiteReviewRecord>;
export type LaunchsiteSort = 'BEST' | 'LATEST' | 'FAVORABLE' | 'CRITICAL';

export interface LaunchsiteParams {
  limit?: number;
  cursor?: string;
  sort?: LaunchsiteSort;
  cutoff?: number;
  language?: string;
  region?: string;
}
