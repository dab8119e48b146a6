/**
 * `/bizdir-reviews`. The registry row; the adapter loads on first use.
 */
import { defineSource } from '../_kit/source.ts';

export const source = defineSource({
  endpoint: '/bizdir-reviews',
  adapter: async () => (await import('./adapter.ts')).adapter,
  capture: {
    kinds: [
      'GetBusinessReviewFeed answer ({"data": ...}) or /gql/batch array of answers',
      'bare list of review edges ({node}) or review nodes',
      'business page HTML (reviews in its embedded Apollo state)',
    ],
    parse: async () => (await import('./capture.ts')).parseCapture,
  },
  canary: { query: 'https://www.yelp.com/biz/katzs-delicatessen-new-york', params: { limit: 10 }, min: 10, fields: ['review_id', 'review_rating'] },
  verifiedBy: 'real captures',
  folder: import.meta.url,
  samples: [{ file: 'yelp/scrapfly_gql_review_edges_2024-02.json', fixture: true }, { file: 'constructed-biz-page.html' }],
});
