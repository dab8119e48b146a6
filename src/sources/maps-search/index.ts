/**
 * `/maps/search`: places for phrases, ids and map URLs. The registry row; the adapter loads on first use.
 */
import { defineSource } from '../_kit/source.ts';

export const source = defineSource({
  endpoint: '/maps/search',
  adapter: async () => (await import('./adapter.ts')).adapter,
  capture: {
    kinds: ['map search answer (tbm=map JSON)', 'place details answer (JSON)', 'place page (HTML)'],
    parse: async () => (await import('./capture.ts')).parseCapture,
  },
  canary: { query: 'museums in paris', params: { limit: 20 }, min: 10, fields: ['name', 'place_id', 'latitude', 'longitude'] },
  verifiedBy: 'real captures',
  folder: import.meta.url,
  samples: [
    { file: 'google-maps/search_tbm-map_coffee_2024-12.json', fixture: true, query: 'coffee' },
    { file: 'google-maps/place_page_tipsy-sticks_2023-04.html', fixture: true, query: 'tipsy sticks' },
  ],
});
