/**
 * Query forms and requests of `/forum-comments` (Reddit).
 *
 * Query items: post links in any form users paste (`www.`, `old.`, `np.`, `m.`, `new.`, no host,
 * with or without slug, comment id, query string or trailing slash; user-profile posts; `redd.it/<id>`
 * short links), share links `/r/<sub>/s/<code>` (followed through their redirect), and bare post ids
 * (`1j7g9uj` or `t3_1j7g9uj`).
 *
 * Requests (the public JSON the site's own pages and clients such as PRAW read):
 *   GET https://www.reddit.com/comments/<id>.json?sort=<s>&limit=500&raw_json=1
 *       → [Listing[t3 post], Listing[t1 comments ... with `more` stubs]]
 *   GET https://www.reddit.com/api/morechildren.json?api_type=json&link_id=t3_<id>&children=<ids>&sort=<s>&limit_children=false&raw_json=1
 *       → {json: {errors: [], data: {things: [t1 | more, ...]}}} (at most 100 ids per call)
 *   GET https://www.reddit.com/comments/<id>/_/<comment id>.json?... for a "continue this thread" stub.
 * `best` is sent as the site's own name for it, `confidence`.
 */
import type { Step } from '../_kit/adapter.ts';
import { SourceError } from '../_kit/errors.ts';
import type { ForumSort } from './record.ts';

const BASE = 'https://www.reddit.com';
/** Comments the site returns on the first page at most (logged out). */
export const PAGE_LIMIT = 500;
/** Ids one morechildren call accepts. */
export const MORE_BATCH = 100;

const ID = /^[a-z0-9]{1,13}$/;
const HOSTS = /^(?:(?:www|old|np|new|m|i|amp|sh|ssl|pay|beta)\.)?reddit\.com$/;

export type QueryForm = { form: 'post'; id: string; commentId?: string } | { form: 'share'; url: string };

/**
 * Reads a query item.
 * @example classifyQuery('https://old.reddit.com/r/funny/comments/3hahrw/ba_dum_tsss/') // { form: 'post', id: '3hahrw' }
 * @example classifyQuery('redd.it/3hahrw') // { form: 'post', id: '3hahrw' }
 */
export function classifyQuery(raw: string): QueryForm | { form: 'invalid'; reason: string } {
  const q = raw.trim();
  const bare = /^(?:t3_)?([a-z0-9]{1,13})$/i.exec(q);
  if (bare) return { form: 'post', id: bare[1].toLowerCase() };
  let u: URL;
  try {
    u = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(q) ? q : q.startsWith('/') ? `${BASE}${q}` : `https://${q}`);
  } catch {
    return { form: 'invalid', reason: `query "${q.slice(0, 100)}" is neither a post link nor a post id` };
  }
  const host = u.hostname.toLowerCase();
  const parts = u.pathname.split('/').filter(Boolean);
  if (host === 'redd.it' || host === 'www.redd.it') {
    const id = parts[0]?.toLowerCase();
    if (id && ID.test(id)) return { form: 'post', id };
  } else if (HOSTS.test(host)) {
    const at = parts.findIndex((p) => p.toLowerCase() === 'comments');
    const id = at >= 0 ? parts[at + 1]?.toLowerCase() : undefined;
    if (id && ID.test(id)) {
      // /comments/<id>/<slug>/<comment id>/: the comment is kept only to say what was asked.
      const c = parts[at + 3]?.toLowerCase();
      return c && ID.test(c) ? { form: 'post', id, commentId: c } : { form: 'post', id };
    }
    if (parts.length >= 4 && parts[0].toLowerCase() === 'r' && parts[2].toLowerCase() === 's') {
      return { form: 'share', url: `${BASE}/r/${encodeURIComponent(parts[1])}/s/${encodeURIComponent(parts[3])}` };
    }
  }
  return { form: 'invalid', reason: `query "${q.slice(0, 100)}" is not a post link (…/comments/<id>/…, redd.it/<id>, /r/<sub>/s/<code>) nor a post id` };
}

/** What checkQuery says for a query (undefined: accepted). */
export function checkForumQuery(q: string): string | undefined {
  const f = classifyQuery(q);
  return f.form === 'invalid' ? f.reason : undefined;
}

const siteSort = (s: ForumSort | undefined) => (!s || s === 'best' ? 'confidence' : s);

/** @example threadUrl('3hahrw', 'best') // 'https://www.reddit.com/comments/3hahrw.json?sort=confidence&limit=500&raw_json=1' */
export function threadUrl(postId: string, sort: ForumSort | undefined, focusId?: string): string {
  const path = focusId ? `/comments/${postId}/_/${focusId}.json` : `/comments/${postId}.json`;
  return `${BASE}${path}?sort=${siteSort(sort)}&limit=${PAGE_LIMIT}&raw_json=1`;
}

/** @example moreChildrenUrl('3hahrw', ['cu5pg2h'], 'new') */
export function moreChildrenUrl(postId: string, ids: string[], sort: ForumSort | undefined): string {
  const children = ids.map(encodeURIComponent).join(',');
  return `${BASE}/api/morechildren.json?api_type=json&link_id=t3_${postId}&children=${children}&sort=${siteSort(sort)}&limit_children=false&raw_json=1`;
}

/** The first step of a query; throws `invalid_query` for an item none of the forms accept. */
export function firstStep(query: string, sort: ForumSort | undefined): Step {
  const f = classifyQuery(query);
  if (f.form === 'invalid') throw new SourceError('invalid_query', f.reason);
  if (f.form === 'share') return { kind: 'share', url: f.url, expect: 'html', userUrl: true };
  return threadStep(f.id, sort);
}

export function threadStep(postId: string, sort: ForumSort | undefined): Step {
  return { kind: 'thread', url: threadUrl(postId, sort), expect: 'json', state: { postId } };
}
