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
  const first = Array.isArray(body.comments) ? (body.comments[0] as { aweme_id?: unknown } | undefined) : undefined;
  const videoId = typeof first?.aweme_id === 'string' ? first.aweme_id : '';
  return commentsPage(body, { videoId, cursor: 0 }, '').records;
}
