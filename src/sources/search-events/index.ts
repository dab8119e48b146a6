/**
 * `/engine-search-events`. The registry row; the adapter loads on first use.
 */
import { defineSource } from '../_kit/source.ts';

export const source = defineSource({
  endpoint: '/engine-search-events',
  adapter: async () => (await import('./adapter.ts')).adapter,
  capture: {
    kinds: ['events results page (HTML)'],
    parse: async () => (await import('./capture.ts')).parseCapture,
  },
  canary: { query: 'concerts in london', params: { pagesPerQuery: 1 }, min: 3, fields: ['title'] },
  verifiedBy: 'constructed samples',
  folder: import.meta.url,
  samples: [{ file: 'constructed-events.html', query: 'concerts in london' }],
});
