/**
 * `/launchsite-reviews`. The registry row; the adapter loads on first use.
 */
import { defineSource } from '../_kit/source.ts';

export const source = defineSource({
  endpoint: '/launchsite-reviews',
  adapter: async () => (await import('./adapter.ts')).adapter,
  capture: {
    kinds: [
      '/frontend/graphql reviews answer ({"data": ...}) or a batch array of answers',
      'bare list of reviews or review edges',
      'product or launch page HTML (reviews in its __NEXT_DATA__ / Apollo state)',
    ],
    parse: async () => (await import('./capture.ts')).parseCapture,
  },
  canary: { query: 'https://www.producthunt.com/products/notion', params: { limit: 10 }, min: 5, fields: ['review_id', 'product_id'] },
  verifiedBy: 'constructed samples',
  folder: import.meta.url,
  samples: [{ file: 'constructed-reviews-answer.json' }, { file: 'constructed-product-page.html' }],
});
