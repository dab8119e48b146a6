/**
 * `/maps/reviews`: the reviews of places. The registry row; the adapter loads on first use.
 */
import { defineSource } from '../_kit/source.ts';

export const source = defineSource({
  endpoint: '/maps/reviews',
  adapter: async () => (await import('./adapter.ts')).adapter,
  capture: {
    kinds: ['reviews page (listugcposts JSON)', 'review entry list (JSON)', 'place page (HTML)', 'place details answer (JSON)', 'map search answer (JSON)'],
    parse: async () => (await import('./capture.ts')).parseCapture,
  },
  canary: { query: 'Eiffel Tower, Paris', params: { reviewsLimit: 20, limit: 1 }, min: 1, fields: ['name', 'place_id', 'reviews_data'] },
  verifiedBy: 'real captures',
  folder: import.meta.url,
  samples: [{ file: 'google-maps/place_page_tipsy-sticks_2023-04.html', fixture: true, query: 'tipsy sticks' }],
});
