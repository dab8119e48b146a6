/**
 * A company's profile on the consumer-review site, as the `reviewsite_service` enrichment adds it
 * to a place (and as a future `/reviewsite-reviews` would head its records).
 */
import type { PlaceRecord } from '../_maps/record.ts';

/** The place's `reviewsite_*` enrichment fields (src/contract/records/enrichments.ts), all present. */
export type ReviewsiteProfile = Required<Pick<PlaceRecord, 'reviewsite_rating' | 'reviewsite_reviews' | 'reviewsite_link' | 'reviewsite_categories'>>;

export const NO_PROFILE: ReviewsiteProfile = { reviewsite_rating: null, reviewsite_reviews: null, reviewsite_link: null, reviewsite_categories: null };
