/**
 * Steps of `/shortvideo-comments`: for a short link, one redirect step (the executor follows the
 * redirects, with the SSRF guard on every hop since the link is the user's); then the site's comment
 * list, `GET /api/comment/list/?aweme_id=<id>&cursor=<n>&count=20`, paged by the `cursor` each
 * answer returns while `has_more` is 1.
 *
 * What the site wants (docs/sources-shortvideo-network.md): the web app adds device and browser
 * parameters, an `msToken` (a cookie the site sets) and the `X-Bogus`/`X-Gnarly` signatures computed
 * by its obfuscated script. We send the plain parameters and no signature; the operator's session
 * cookies (`SHORTVIDEO_COOKIES`) are added by the executor (src/fetch/credentials.ts), never kept in a
 * step. An empty or refused answer becomes a typed `blocked` error.
 *
 * `limit_per_query`, `next_page_cursor` and the `cursor` parameter are the runner's (decision 23):
 * it cuts at the limit and signs the steps still to run into each record's cursor.
 */
import type { QueryContext, Step } from '../_kit/adapter.ts';
import { SourceError } from '../_kit/errors.ts';
import { classifyQuery } from './query.ts';
import type { ShortvideoParams } from './record.ts';

/** Comments per page: what the web app asks for (the site caps `count` near 50). */
export const PAGE_SIZE = 20;

/** Which comment page a step asks for: the video and the site's cursor (an offset). */
export interface PageState {
  videoId: string;
  cursor: number;
  [k: string]: unknown;
}

/**
 * URL of one comment page.
 * @example commentListUrl('7603296357641735445', 0) // 'https://www.tiktok.com/api/comment/list/?aid=1988&...&aweme_id=7603296357641735445&count=20&cursor=0...'
 */
export function commentListUrl(videoId: string, cursor: number): string {
  const q = new URLSearchParams({
    aid: '1988', app_name: 'tiktok_web', app_language: 'en', browser_language: 'en-US', channel: 'tiktok_web', device_platform: 'web_pc',
    aweme_id: videoId, count: String(PAGE_SIZE), cursor: String(cursor), current_region: '', fromWeb: '1', from_page: 'video',
  });
  return `https://www.tiktok.com/api/comment/list/?${q}`;
}

export function commentPageStep(s: PageState): Step {
  return { kind: 'comments', url: commentListUrl(s.videoId, s.cursor), expect: 'json', headers: { referer: `https://www.tiktok.com/video/${s.videoId}` }, state: { ...s } };
}

export function plan(ctx: QueryContext<ShortvideoParams>): Step[] {
  const q = classifyQuery(ctx.query);
  if (typeof q === 'string') throw new SourceError('invalid_query', q);
  if (q.kind === 'short') return [{ kind: 'resolve', url: q.url, userUrl: true, expect: 'html' }];
  return [commentPageStep({ videoId: q.videoId, cursor: 0 })];
}
