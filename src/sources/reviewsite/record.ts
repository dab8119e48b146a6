/**
 * A company's profile on the consumer-review site, as the `reviewsite_service` enrichment adds it
 * to a place (and as a future `/reviewsite-reviews` would head its records).
 */
export interface ReviewsiteProfile {
  /** TrustScore, 1-5 with one decimal. */
  reviewsite_rating: number | null;
  reviewsite_reviews: number | null;
  reviewsite_link: string | null;
  /** Category names, the primary one first. */
  reviewsite_categories: string[] | null;
}

export const NO_PROFILE: ReviewsiteProfile = { reviewsite_rating: null, reviewsite_reviews: null, reviewsite_link: null, reviewsite_categories: null };
