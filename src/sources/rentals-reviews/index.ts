/**
 * `/rentals-reviews`. The registry row; the adapter loads on first use.
 */
import { defineSource } from '../_kit/source.ts';

export const source = defineSource({
  endpoint: '/rentals-reviews',
  adapter: async () => (await import('./adapter.ts')).adapter,
  capture: {
    kinds: [
      'StaysPdpReviewsQuery answer ({"data": ...}) or an array of answers',
      'bare list of PdpReviewForP3 reviews',
      'listing page HTML (reviews in its data-deferred-state scripts)',
    ],
    parse: async () => (await import('./capture.ts')).parseCapture,
  },
  canary: { query: 'https://www.airbnb.com/rooms/1394876879080118865', params: { limit: 10 }, min: 5, fields: ['review_id', 'listing_id', 'review_rating'] },
  verifiedBy: 'real captures',
  folder: import.meta.url,
  samples: [{ file: 'airbnb/StaysPdpReviewsQuery.response_2026-09.json', fixture: true }, { file: 'constructed-listing-page.html' }],
});
