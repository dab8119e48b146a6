/**
 * Pure parsing of `/network-posts` answers: the logged-out company page and the signed-in feed.
 * A sign-in wall is a typed `blocked` error saying so, never an empty success; a page that is
 * neither posts nor a wall is `layout_changed`.
 */
import type { FetchedResponse, ParseResult, QueryContext, Step } from '../_kit/adapter.ts';
import { SourceError } from '../_kit/errors.ts';
import { companyPage, type Company } from './page.ts';
import { feedStep, type FeedState, type PageStepState } from './plan.ts';
import { classifyCompany, slugOfUrl } from './query.ts';
import type { NetworkParams, NetworkPost, PostBody } from './record.ts';
import { feedPage } from './voyager.ts';

const WALL_PATH = /^\/(?:authwall|login|uas\/login|checkpoint|signup|uas\/authenticate)\b/;
const WALL_BODY = /\/authwall\?|<title>\s*(?:Sign Up|Sign In|Log In|LinkedIn Login)\b|join-form|authwall/i;

function wallPath(url: string): boolean {
  try {
    return WALL_PATH.test(new URL(url).pathname);
  } catch {
    return false;
  }
}

/** The typed error of a refusal, if the response is one. */
export function refusal(res: Pick<FetchedResponse, 'status' | 'url' | 'body'>, signedIn: boolean): SourceError | null {
  const fix = signedIn ? 'the session cookies (NETWORK_POSTS_COOKIES) were refused: sign in again and replace them' : 'configure NETWORK_POSTS_COOKIES (a signed-in session) or use another proxy';
  if (wallPath(res.url)) return new SourceError('blocked', `authwall: the site sent the request to its sign-in wall (${new URL(res.url).pathname}); ${fix}`);
  if (res.status === 999) return new SourceError('blocked', `HTTP 999: the site refuses this client as automated; ${fix}`);
  if (res.status === 401) return new SourceError('blocked', `HTTP 401: sign-in required; ${fix}`);
  return null;
}

/** Adds the query and the company to the posts of one answer (`next_page_cursor` is the runner's). */
function withCompany(posts: PostBody[], base: Company & { query: string }): NetworkPost[] {
  return posts.map((p) => ({ query: base.query, company_name: base.company_name, company_id: base.company_id, company_slug: base.company_slug, ...p, next_page_cursor: null }));
}

function parsePage(step: Step, res: FetchedResponse, ctx: QueryContext<NetworkParams>): ParseResult<NetworkPost> {
  const st = (step.state ?? { resolveOnly: false }) as PageStepState;
  const wall = refusal(res, st.resolveOnly);
  if (wall) throw wall;
  if (st.resolveOnly) {
    const slug = slugOfUrl(res.url) ?? companyPage(res.body, res.url)?.company_slug ?? null;
    if (!slug || /^\d+$/.test(slug)) throw new SourceError('layout_changed', `the company page of ${ctx.query} names no universal name to read its feed with`);
    return { records: [], next: [feedStep({ slug, start: 0, token: null })] };
  }
  const page = companyPage(res.body, res.url);
  if (!page) {
    if (WALL_BODY.test(res.body.slice(0, 200_000))) throw refusal({ ...res, url: 'https://www.linkedin.com/authwall' }, false)!;
    throw new SourceError('layout_changed', 'the company page holds neither a company nor post cards');
  }
  if (page.posts === null) {
    throw new SourceError('blocked', `the logged-out company page of ${page.company_name ?? ctx.query} shows no posts section (the site hides posts from logged-out visitors here); configure NETWORK_POSTS_COOKIES for the signed-in feed`);
  }
  const asked = classifyCompany(ctx.query);
  const slug = page.company_slug ?? (typeof asked === 'object' ? asked.key : ctx.query);
  return { records: withCompany(page.posts, { ...page, company_slug: slug, query: ctx.query }), next: [], cursor: null };
}

function parseFeed(step: Step, res: FetchedResponse, ctx: QueryContext<NetworkParams>): ParseResult<NetworkPost> {
  const wall = refusal(res, true);
  if (wall) throw wall;
  const s = step.state as FeedState;
  let json: unknown;
  try {
    json = JSON.parse(res.body);
  } catch {
    if (/^\s*</.test(res.body)) throw new SourceError('blocked', 'the feed answered an HTML page instead of JSON: the session cookies (NETWORK_POSTS_COOKIES) were refused');
    throw new SourceError('layout_changed', 'the feed answer is not JSON');
  }
  const body = json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : null;
  if (!body) throw new SourceError('layout_changed', 'the feed answer is not a JSON object');
  if (typeof body.status === 'number' && body.status >= 400) {
    throw new SourceError(body.status === 404 ? 'not_found' : 'blocked', `the feed refused: status ${body.status}${typeof body.message === 'string' ? ` (${body.message.slice(0, 120)})` : ''}`);
  }
  const page = feedPage(body);
  if (!page) throw new SourceError('layout_changed', 'the feed answer has no elements');
  const nextStart = s.start + page.size;
  const more = page.size > 0 && (page.total === null || nextStart < page.total);
  // Every update names its actor; one without falls back to the page's first.
  const first = page.posts[0];
  const records: NetworkPost[] = page.posts.map(({ company_name, company_id, ...post }) => ({
    query: ctx.query, company_name: company_name ?? first.company_name, company_id: company_id ?? first.company_id, company_slug: s.slug || null, ...post, next_page_cursor: null,
  }));
  return { records, next: more ? [feedStep({ slug: s.slug, start: nextStart, token: page.token })] : [], cursor: more ? page.token ?? String(nextStart) : null };
}

export function parse(step: Step, res: FetchedResponse, ctx: QueryContext<NetworkParams>): ParseResult<NetworkPost> {
  return step.kind === 'feed' ? parseFeed(step, res, ctx) : parsePage(step, res, ctx);
}
