/**
 * `/maps/reviews`: the reviews of places. The registry row; the adapter loads on first use.
 */
import { defineSource } from '../_kit/source.ts';

export const source = defineSource({
  endpoint: '/maps/reviews',
  adapter: async () => (await import('./adapter.ts')).adapter,
  capture: {
    kinds: ['reviews page (listugcposts JSON)', 'review entry list (JSON)', 'review dialog answer (GetLocalBoqProxy JSON, constructed only)', 'place page (HTML)', 'place details answer (JSON)', 'map search answer (JSON)'],
    parse: async () => (await import('./capture.ts')).parseCapture,
  },
  // The signed-out route since the 2026 limited view (the review dialog, 10 a page): 20 reviews are two
  // pages, so the canary checks its paging too. The map list's own route needs the operator's cookies.
  canary: { query: 'Eiffel Tower, Paris', params: { reviewsLimit: 20, limit: 1, reviewsRoute: 'dialog' }, min: 1, fields: ['name', 'place_id', 'reviews_data'] },
  verifiedBy: 'real captures (map list, place); constructed samples only for the review dialog (no real answer captured)',
  folder: import.meta.url,
  samples: [{ file: 'google-maps/place_page_tipsy-sticks_2023-04.html', fixture: true, query: 'tipsy sticks' }, { file: 'constructed-dialog-answer.json', unwrap: 'body' }],
});
