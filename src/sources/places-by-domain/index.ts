/**
 * `/engine-places-by-domain`. The registry row; the adapter loads on first use.
 */
import { defineSource } from '../_kit/source.ts';

export const source = defineSource({
  endpoint: '/engine-places-by-domain',
  adapter: async () => (await import('./adapter.ts')).adapter,
  capture: {
    kinds: ['map search answer (tbm=map JSON)'],
    parse: async () => (await import('./capture.ts')).parseCapture,
  },
  canary: { query: 'louvre.fr', min: 1, fields: ['name', 'place_id'] },
  verifiedBy: 'real captures',
  folder: import.meta.url,
  samples: [{ file: 'google-maps/search_tbm-map_coffee_2024-12.json', fixture: true, query: 'nookofficial.gr' }],
});
