/**
 * `/forum-comments` (Reddit): comments of posts, whole threads with every "more" stub expanded.
 * The registry row; the adapter loads on first use.
 */
import { defineSource } from '../_kit/source.ts';

export const source = defineSource({
  endpoint: '/forum-comments',
  adapter: async () => (await import('./adapter.ts')).adapter,
  capture: {
    kinds: ['thread page JSON (/comments/<id>.json, 2016-2025 layouts, with or without context)', 'morechildren answer ({json: {data: {things}}})'],
    parse: async () => (await import('./capture.ts')).parseCapture,
  },
  // An archived 2015 thread: it takes no new comments, so its first comments stay.
  canary: { query: 'https://old.reddit.com/r/funny/comments/3hahrw/ba_dum_tsss/', params: { limit: 50 }, min: 50, fields: ['comment_id', 'post_id', 'created_timestamp'] },
  verifiedBy: 'real captures',
  folder: import.meta.url,
  samples: [
    { file: 'reddit/post_comments_3hahrw_2016-03.json', fixture: true },
    { file: 'reddit/post_comments_1j7g9uj_context100_2025-06.json', fixture: true },
    { file: 'reddit/morechildren_3hahrw_2016-03.json', fixture: true },
  ],
});
