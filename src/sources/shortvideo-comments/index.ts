/**
 * `/shortvideo-comments`: top-level comments of short videos (TikTok's `/api/comment/list/`). The
 * registry row; the adapter loads on first use. Details and the site's anti-bot reality:
 * docs/sources-shortvideo-network.md.
 */
import { defineSource } from '../_kit/source.ts';

export const source = defineSource({
  endpoint: '/shortvideo-comments',
  adapter: async () => (await import('./adapter.ts')).adapter,
  capture: {
    kinds: ['comment list body (/api/comment/list/, JSON as served)', 'the video page a short link lands on (HTML; names the video, holds no comments)'],
    parse: async () => (await import('./capture.ts')).parseCapture,
  },
  canary: { query: 'https://www.tiktok.com/@scout2015/video/6718335390845095173', params: { limit_per_query: 20 }, min: 5, fields: ['comment_id', 'video_id'] },
  verifiedBy: 'real captures',
  folder: import.meta.url,
  samples: [{ file: 'tiktok/comment_list_body_2026-02.json', fixture: true }, { file: 'constructed-video-page.html', empty: true }],
});
