/**
 * `/hotels-search`: hotels from hotel-search result pages (Google Hotels' `AtySUc` RPC). The
 * registry row; the adapter loads on first use.
 */
import { defineSource } from '../_kit/source.ts';

export const source = defineSource({
  endpoint: '/hotels-search',
  adapter: async () => (await import('./adapter.ts')).adapter,
  capture: {
    kinds: ['AtySUc search or hotel answer (batchexecute as served, or decoded JSON)'],
    parse: async () => (await import('./capture.ts')).parseCapture,
  },
  canary: { query: 'hotels in paris', params: { limit: 20 }, min: 10, fields: ['name'] },
  verifiedBy: 'real captures',
  folder: import.meta.url,
  samples: [
    { file: 'google-hotels/search_response_nyc.json', fixture: true },
    { file: 'google-hotels/detail_response_sample.json', fixture: true },
    { file: 'constructed-search-sponsored.json' },
  ],
});
