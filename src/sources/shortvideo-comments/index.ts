/**
 * The short-video comments source (TikTok): `/shortvideo-comments`. Details and the site's
 * anti-bot reality: docs/sources-shortvideo-network.md.
 */
export { adapter, makeAdapter } from './adapter.ts';
export { parseCapture } from './capture.ts';
export type { ShortvideoComment, ShortvideoParams } from './record.ts';
