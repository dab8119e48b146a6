/**
 * `trawl parse /shortvideo-comments <file>`: a saved response of this source → records. It reads
 * what the adapter reads: a comment list body (`/api/comment/list/`, as served), and the page a
 * short link lands on (a video page: it holds no comments, so it gives none, but it must name a video).
 */
import { commentListBody, commentsPage, videoIdOfLanding } from './parse.ts';
import type { ShortvideoComment } from './record.ts';

/**
 * @example parseCapture(readFileSync('comment_list_body.json', 'utf8'))[0].comment_id
 */
export function parseCapture(text: string): ShortvideoComment[] {
  if (/^\s*</.test(text)) {
    const id = videoIdOfLanding({ url: '', body: text });
    if (!id) throw new Error('shortvideo-comments: the HTML page names no video (expected a video page or a comment list body)');
    return [];
  }
  const body = commentListBody(text);
  // The video: the one most of the comments name (an inserted entry may name another).
  const named = new Map<string, number>();
  for (const c of Array.isArray(body.comments) ? body.comments : []) {
    const v = (c as { aweme_id?: unknown } | null)?.aweme_id;
    if (typeof v === 'string' && /^\d+$/.test(v)) named.set(v, (named.get(v) ?? 0) + 1);
  }
  const videoId = [...named].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
  return commentsPage(body, { videoId, cursor: 0 }, '').records;
}
