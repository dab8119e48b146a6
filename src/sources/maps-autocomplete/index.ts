/**
 * `/engine-maps-autocomplete`. The registry row; the adapter loads on first use.
 */
import { defineSource } from '../_kit/source.ts';

export const source = defineSource({
  endpoint: '/engine-maps-autocomplete',
  adapter: async () => (await import('./adapter.ts')).adapter,
  capture: {
    kinds: ["suggest answer (JSON, )]}' line optional)"],
    parse: async () => (await import('./capture.ts')).parseCapture,
  },
  canary: { query: 'eiffel tow', min: 1, fields: ['suggestion'] },
  verifiedBy: 'constructed samples',
  folder: import.meta.url,
  samples: [{ file: 'constructed-autocomplete.json', unwrap: 'body', query: 'pizza te' }],
});
