/**
 * Pure parsing of the comment list (`/api/comment/list/`) and of a short link's landing page.
 * A comment missing a branch (user, share info) gets null fields; an answer with none of the
 * expected keys is `layout_changed`; an empty or refused answer is `blocked`, never an empty success.
 */
import type { FetchedResponse, ParseResult, QueryContext, Step } from '../_kit/adapter.ts';
import { SourceError } from '../_kit/errors.ts';
import { timeFields } from '../_kit/dates.ts';
import { isAdNode, webLink } from '../_kit/values.ts';
import { commentPageStep, type PageState } from './plan.ts';
import { videoIdOfUrl } from './query.ts';
import type { ShortvideoComment, ShortvideoParams } from './record.ts';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : null);
const nonEmpty = (v: unknown): string | null => {
  const s = str(v);
  return s ? s : null;
};
const int = (v: unknown): number | null => {
  const n = typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) ? n : null;
};
const bool = (v: unknown): boolean | null => (typeof v === 'boolean' ? v : v === 0 || v === 1 ? v === 1 : null);
const firstUrl = (v: unknown): string | null => {
  const list = obj(v)?.url_list;
  return Array.isArray(list) ? webLink(list[0]) : null;
};

const NOT_FOUND_MSG = /not exist|n't exist|not found|deleted|removed|private/i;

/**
 * The JSON object of a comment list answer, or the typed error the answer stands for.
 * @example commentListBody('') // throws SourceError('blocked')
 */
export function commentListBody(text: string): Obj {
  const t = text.trim();
  if (!t) {
    throw new SourceError('blocked', 'the comment list answered an empty body: the site does this to unsigned calls (no msToken/X-Bogus) and to flagged addresses; configure SHORTVIDEO_COOKIES or another proxy');
  }
  let json: unknown;
  try {
    json = JSON.parse(t);
  } catch {
    if (/^</.test(t)) {
      if (/captcha|verify|security check/i.test(t.slice(0, 20_000))) throw new SourceError('captcha', 'the comment list answered a verification page');
      throw new SourceError('blocked', 'the comment list answered an HTML page instead of JSON');
    }
    throw new SourceError('layout_changed', 'the comment list answer is not JSON');
  }
  const body = obj(json);
  if (!body) throw new SourceError('layout_changed', 'the comment list answer is not a JSON object');
  const code = int(body.status_code);
  if (code !== null && code !== 0) {
    const msg = str(body.status_msg) ?? '';
    throw new SourceError(NOT_FOUND_MSG.test(msg) ? 'not_found' : 'blocked', `the comment list refused: status_code ${code}${msg ? ` (${msg.slice(0, 120)})` : ''}`);
  }
  if (!('comments' in body) && !('has_more' in body)) throw new SourceError('layout_changed', 'the comment list answer has neither comments nor has_more');
  return body;
}

/** Page-level facts every comment of the page carries. */
interface PageFacts {
  query: string;
  videoId: string;
  total: number | null;
}

/** Comment and video ids are decimal numbers (`7603301260598838032`). */
const NUMERIC_ID = /^\d+$/;

/** The comment id of a node, when it has one of the site's form. */
const cidOf = (node: unknown): string | null => {
  const cid = nonEmpty(obj(node)?.cid);
  return cid && NUMERIC_ID.test(cid) ? cid : null;
};

/**
 * One comment node → its record (cursor filled by the caller). Null when the node is no comment of
 * this video: no numeric cid, or an `aweme_id` naming another video (an entry that is not the
 * video's own comment, such as a promoted one).
 * @example commentOf({ cid: '1', text: 'hi', create_time: 1770281693 }, { query: 'q', videoId: '2', total: null })?.comment_id // '1'
 */
export function commentOf(node: unknown, f: PageFacts): ShortvideoComment | null {
  const c = obj(node);
  const cid = cidOf(node);
  if (!c || !cid) return null;
  const video = nonEmpty(c.aweme_id);
  if (video !== null && f.videoId !== '' && video !== f.videoId) return null;
  const user = obj(c.user);
  const images: string[] = [];
  if (Array.isArray(c.image_list)) {
    for (const im of c.image_list) {
      if (isAdNode(im)) continue;
      const u = firstUrl(obj(im)?.origin_url) ?? firstUrl(obj(im)?.crop_url);
      if (u) images.push(u);
    }
  }
  return {
    query: f.query,
    video_id: video ?? f.videoId,
    comment_id: cid,
    text: str(c.text),
    author_id: nonEmpty(user?.uid),
    author_username: nonEmpty(user?.unique_id),
    author_nickname: str(user?.nickname),
    likes: int(c.digg_count),
    replies_count: int(c.reply_comment_total),
    ...timeFields('created', int(c.create_time)),
    next_page_cursor: null,
    author_sec_uid: nonEmpty(user?.sec_uid),
    author_avatar: firstUrl(user?.avatar_thumb),
    language: nonEmpty(c.comment_language),
    pinned_by_author: bool(c.author_pin),
    liked_by_author: bool(c.is_author_digged),
    images,
    comment_url: nonEmpty(obj(c.share_info)?.url),
    video_comments_total: f.total,
  };
}

/** What one page gives: its records and the page after it, if the site has more. */
export interface PageOut {
  records: ShortvideoComment[];
  next: PageState | null;
  /** The site's cursor of the next page (informational), null when the video has no more. */
  cursor: string | null;
}

/**
 * Records of one comment list body fetched at `s` (every comment of the page: the runner applies
 * `limit_per_query` and writes `next_page_cursor`).
 */
export function commentsPage(body: Obj, s: PageState, query: string): PageOut {
  const list = Array.isArray(body.comments) ? body.comments : [];
  const total = int(body.total);
  const hasMore = body.has_more === 1 || body.has_more === true;
  const nextSite = int(body.cursor);
  if (list.length === 0 && s.cursor === 0 && total !== null && total > 0) {
    throw new SourceError('blocked', `the comment list withheld the comments (total ${total}, none given): the site wants a signed or signed-in call`);
  }
  if (list.length > 0 && !list.some((c) => cidOf(c))) throw new SourceError('layout_changed', 'the comment list holds no node with a numeric cid');
  const facts = { query, videoId: s.videoId, total };
  const records: ShortvideoComment[] = [];
  for (const c of list) {
    const r = commentOf(c, facts);
    if (r) records.push(r);
  }
  // has_more without progress would loop: stop there.
  const goOn = hasMore && list.length > 0 && nextSite !== null && nextSite > s.cursor;
  return { records, next: goOn ? { videoId: s.videoId, cursor: nextSite! } : null, cursor: goOn ? String(nextSite) : null };
}

const CANONICAL = /<link[^>]+rel=["']canonical["'][^>]*href=["']([^"']+)["']|<meta[^>]+property=["']og:url["'][^>]*content=["']([^"']+)["']/i;
const ITEM_ID = /"itemStruct"\s*:\s*\{\s*"id"\s*:\s*"(\d{8,24})"/;

/**
 * The video a short link lands on: the final URL, else the page's canonical link, else the
 * embedded item state. Null when the landing page names no video.
 */
export function videoIdOfLanding(res: Pick<FetchedResponse, 'url' | 'body'>): string | null {
  const fromUrl = videoIdOfUrl(res.url);
  if (fromUrl) return fromUrl;
  const head = res.body.slice(0, 400_000);
  const m = CANONICAL.exec(head);
  const fromLink = m ? videoIdOfUrl((m[1] ?? m[2]).replace(/&amp;/g, '&')) : null;
  return fromLink ?? ITEM_ID.exec(res.body)?.[1] ?? null;
}

export function parse(step: Step, res: FetchedResponse, ctx: QueryContext<ShortvideoParams>): ParseResult<ShortvideoComment> {
  if (step.kind === 'resolve') {
    const id = videoIdOfLanding(res);
    if (!id) throw new SourceError('not_found', `the short link ${step.url} leads to no video (landed on ${res.url.slice(0, 200)})`);
    return { records: [], next: [commentPageStep({ videoId: id, cursor: 0 })] };
  }
  const s = step.state as PageState;
  const page = commentsPage(commentListBody(res.body), s, ctx.query);
  return { records: page.records, next: page.next ? [commentPageStep(page.next)] : [], cursor: page.cursor };
}
