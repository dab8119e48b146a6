/**
 * `/realestate-search`: property listings (Zillow search pages and search API, map-area splitting
 * past the page cap, property pages). The registry row; the adapter loads on first use.
 */
import { defineSource } from '../_kit/source.ts';

export const source = defineSource({
  endpoint: '/realestate-search',
  adapter: async () => (await import('./adapter.ts')).adapter,
  capture: {
    kinds: ['search API answer (JSON: cat1.searchResults listResults/mapResults)', 'search page with __NEXT_DATA__ (searchPageState)', 'property page with __NEXT_DATA__ (gdpClientCache)'],
    parse: async () => (await import('./capture.ts')).parseCapture,
  },
  canary: { query: 'seattle, wa', params: { limit: 20 }, min: 10, fields: ['property_id', 'latitude', 'longitude'] },
  verifiedBy: 'real captures (result and property nodes, wrapped as served)',
  folder: import.meta.url,
  samples: [{ file: 'zillow/scrapfly_property_gdp_2023-06.json', fixture: true }, { file: 'constructed-search-buildings.json' }],
});
