/**
 * `/delivery-reviews`. The registry row; the adapter loads on first use.
 */
import { defineSource } from '../_kit/source.ts';

export const source = defineSource({
  endpoint: '/delivery-reviews',
  adapter: async () => (await import('./adapter.ts')).adapter,
  capture: {
    kinds: [
      '/graphql/<operation> reviews answer ({"data": ...}) or a batch array of answers',
      'bare list of review cards',
      'store page HTML (reviews in its __NEXT_DATA__ / Apollo state)',
    ],
    parse: async () => (await import('./capture.ts')).parseCapture,
  },
  canary: { query: 'https://www.doordash.com/store/halal-city---soma-san-francisco-34620533/', params: { limit: 10 }, min: 5, fields: ['review_id', 'store_id'] },
  verifiedBy: 'constructed samples',
  folder: import.meta.url,
  samples: [{ file: 'constructed-reviews-answer.json' }, { file: 'constructed-store-page.html' }],
});
