/**
 * `/engine-search-careers`. The registry row; the adapter loads on first use.
 */
import { defineSource } from '../_kit/source.ts';

export const source = defineSource({
  endpoint: '/engine-search-careers',
  adapter: async () => (await import('./adapter.ts')).adapter,
  capture: {
    kinds: ['jobs results page (HTML)'],
    parse: async () => (await import('./capture.ts')).parseCapture,
  },
  canary: { query: 'software engineer new york', params: { pagesPerQuery: 1 }, min: 5, fields: ['title', 'company'] },
  verifiedBy: 'constructed samples',
  folder: import.meta.url,
  samples: [{ file: 'constructed-jobs.html', query: 'python developer' }],
});
