/**
 * `/lodging-prices`: room and rate prices of hotels (Booking.com hotel pages, search results for a
 * hotel id). The registry row; the adapter loads on first use.
 */
import { defineSource } from '../_kit/source.ts';

export const source = defineSource({
  endpoint: '/lodging-prices',
  adapter: async () => (await import('./adapter.ts')).adapter,
  capture: {
    kinds: ['hotel page (HTML, room table)', 'search results page (HTML, Apollo store)', 'FullSearch GraphQL answer {"data": ...}'],
    parse: async () => (await import('./capture.ts')).parseCapture,
  },
  canary: { query: 'https://www.booking.com/hotel/ae/burj-al-arab-jumeirah.html', min: 1, fields: ['hotel_id', 'hotel_name'] },
  verifiedBy: 'real captures (search result nodes, wrapped as served) and a constructed hotel page',
  folder: import.meta.url,
  samples: [{ file: 'constructed-hotel-page.html' }, { file: 'constructed-search-no-dates.json' }],
});
