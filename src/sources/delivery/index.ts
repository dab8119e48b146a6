/**
 * `/delivery`: menu items of food-delivery stores (DoorDash). The registry row; the adapter loads
 * on first use.
 */
import { defineSource } from '../_kit/source.ts';

export const source = defineSource({
  endpoint: '/delivery',
  adapter: async () => (await import('./adapter.ts')).adapter,
  capture: {
    kinds: [
      '/graphql/storepageFeed answer ({"data": ...}) or a batch array of answers',
      '/graphql/itemPage answer ({"data": ...})',
      'store page HTML (menu in its __NEXT_DATA__ / Apollo state)',
    ],
    parse: async () => (await import('./capture.ts')).parseCapture,
  },
  canary: { query: 'https://www.doordash.com/store/halal-city---soma-san-francisco-34620533/', min: 5, fields: ['item_id', 'item_name', 'store_id'] },
  verifiedBy: 'constructed samples',
  folder: import.meta.url,
  samples: [
    { file: 'constructed-store-feed.json' },
    { file: 'constructed-item-page.json' },
    { file: 'constructed-store-page.html' },
    { file: 'constructed-store-feed-merchant-info.json' },
    { file: 'constructed-item-page-choices.json' },
    { file: 'constructed-item-page-options.json' },
  ],
});
