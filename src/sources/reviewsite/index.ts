/**
 * The consumer-review site (Trustpilot). Today: the company-profile lookup of the `reviewsite_service`
 * map enrichment (./adapter.ts). The folder has the kit's shape (plan, parse, capture, record) so a
 * `/reviewsite-reviews` endpoint can follow: its registry row (defineSource) belongs here once the
 * contract declares that endpoint.
 */
export { reviewsiteProfile } from './adapter.ts';
export { parseCapture } from './capture.ts';
export type { ReviewsiteProfile } from './record.ts';
