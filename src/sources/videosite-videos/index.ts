/**
 * `/videosite-videos` (YouTube): videos or shorts of channels, newest first.
 * The registry row; the adapter loads on first use.
 */
import { defineSource } from '../_kit/source.ts';

export const source = defineSource({
  endpoint: '/videosite-videos',
  adapter: async () => (await import('./adapter.ts')).adapter,
  capture: {
    kinds: [
      'InnerTube browse answer of a channel tab (Videos, Shorts)', 'browse continuation answer', 'navigation/resolve_url answer (no videos)',
      'channel page HTML with ytInitialData (2021 legacy to 2026)', 'results page HTML with ytInitialData',
    ],
    parse: async () => (await import('./capture.ts')).parseCapture,
  },
  canary: { query: 'UCTwECeGqMZee77BjdoYtI2Q', params: { shorts: false, limit: 20 }, min: 20, fields: ['video_id', 'title', 'channel_id'] },
  verifiedBy: 'real captures',
  folder: import.meta.url,
  samples: [
    { file: 'youtube/browse_channel_videos_tab_initial_2026-05.json', fixture: true },
    { file: 'youtube/browse_channel_videos_tab_continuation_2026-05.json', fixture: true },
    { file: 'youtube/browse_channel_shorts_tab_initial_2026-01.json', fixture: true },
    { file: 'youtube/browse_channel_shorts_tab_continuation_2026-01.json', fixture: true },
    { file: 'youtube/legacy_channel_videos_page_2021-05.html', fixture: true },
    { file: 'constructed-browse-uploads-playlist.json' },
  ],
});
