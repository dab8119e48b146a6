/**
 * `/network-posts`: posts of professional-network company pages (LinkedIn). The registry row; the
 * adapter loads on first use. Details, the login wall and the signed-in path:
 * docs/sources-shortvideo-network.md.
 */
import { defineSource } from '../_kit/source.ts';

export const source = defineSource({
  endpoint: '/network-posts',
  adapter: async () => (await import('./adapter.ts')).adapter,
  capture: {
    kinds: ['logged-out company page (HTML as served)', 'signed-in company feed (voyager feed/updatesV2 JSON, normalized or plain)'],
    parse: async () => (await import('./capture.ts')).parseCapture,
  },
  canary: { query: 'https://www.linkedin.com/company/microsoft/', params: { limit: 10 }, min: 3, fields: ['post_id', 'company_name'] },
  verifiedBy: 'constructed samples',
  folder: import.meta.url,
  samples: [{ file: 'constructed-company-page.html' }, { file: 'constructed-voyager-updates.json' }],
});
