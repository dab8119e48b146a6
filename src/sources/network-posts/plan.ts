/**
 * Steps of `/network-posts`.
 *
 * Logged out (the default): one step, the public company page `https://www.linkedin.com/company/<slug>/`;
 * its "Updates" section carries the recent posts as cards. The site offers a logged-out visitor no
 * further pages, so a query gets at most what that page shows.
 *
 * Signed in (`NETWORK_POSTS_COOKIES`): the web app's company feed call,
 * `GET /voyager/api/feed/updatesV2?q=companyFeedByUniversalName&companyUniversalName=<slug>&moduleKey=member-share&count=<n>&start=<i>`
 * with the `csrf-token` header, paged by `start` (and the `paginationToken` each answer returns).
 * A numeric id is first turned into its slug by loading the company page (the site redirects it).
 */
import type { QueryContext, Step } from '../_kit/adapter.ts';
import { SourceError } from '../_kit/errors.ts';
import { decodeCursor } from '../_kit/cursor.ts';
import { classifyCompany, companyPageUrl, type CompanyQuery } from './query.ts';
import type { NetworkParams } from './record.ts';
import type { NetworkSettings } from './settings.ts';

export const FEED_PAGE = 20;

/** Where a step starts: the slug, the feed offset (and token), posts of that answer to skip, records so far. */
export interface FeedState {
  slug: string;
  start: number;
  token: string | null;
  skip: number;
  got: number;
  [k: string]: unknown;
}

export interface PageStepState {
  skip: number;
  /** Only resolving a numeric id to a slug for the signed-in feed. */
  resolveOnly: boolean;
  [k: string]: unknown;
}

/** A decoded `cursor` parameter: which path it continues and where. */
export interface Resume {
  mode: 'page' | 'feed';
  slug: string;
  start: number;
  token: string | null;
  skip: number;
}

export function readCursor(raw: string | undefined): Resume | null {
  if (!raw) return null;
  const c = decodeCursor(raw);
  if (!c || (c.m !== 'page' && c.m !== 'feed') || typeof c.s !== 'string' || typeof c.k !== 'number') {
    throw new SourceError('invalid_query', 'cursor is not a next_page_cursor of /network-posts');
  }
  return { mode: c.m, slug: c.s, start: typeof c.st === 'number' ? c.st : 0, token: typeof c.t === 'string' ? c.t : null, skip: c.k };
}

/**
 * The feed URL of one page.
 * @example feedUrl('microsoft', 20, 20, null) // 'https://www.linkedin.com/voyager/api/feed/updatesV2?q=companyFeedByUniversalName&companyUniversalName=microsoft&moduleKey=member-share&count=20&start=20'
 */
export function feedUrl(slug: string, start: number, count: number, token: string | null): string {
  const q = new URLSearchParams({ q: 'companyFeedByUniversalName', companyUniversalName: slug, moduleKey: 'member-share', count: String(count), start: String(start) });
  if (token) q.set('paginationToken', token);
  return `https://www.linkedin.com/voyager/api/feed/updatesV2?${q}`;
}

export function feedStep(s: FeedState, settings: NetworkSettings): Step {
  return {
    kind: 'feed', url: feedUrl(s.slug, s.start, FEED_PAGE, s.token), expect: 'json', state: { ...s },
    headers: {
      cookie: settings.cookies ?? '', 'csrf-token': settings.csrf ?? '', accept: 'application/vnd.linkedin.normalized+json+2.1',
      'x-restli-protocol-version': '2.0.0', 'x-li-lang': 'en_US', referer: `https://www.linkedin.com/company/${encodeURIComponent(s.slug)}/posts/`,
    },
  };
}

export function pageStep(c: Pick<CompanyQuery, 'key' | 'section'>, state: PageStepState, settings: NetworkSettings): Step {
  const step: Step = { kind: 'page', url: companyPageUrl(c), expect: 'html', state: { ...state } };
  if (state.resolveOnly && settings.cookies) step.headers = { cookie: settings.cookies };
  return step;
}

/** The feed state a signed-in query starts at for `slug`, honouring a resume cursor. */
export function feedStart(slug: string, resume: Resume | null): FeedState {
  if (!resume) return { slug, start: 0, token: null, skip: 0, got: 0 };
  if (resume.mode !== 'feed') throw new SourceError('invalid_query', 'cursor continues the logged-out company page, but this deployment reads the signed-in feed');
  if (resume.slug !== slug) throw new SourceError('invalid_query', `cursor continues company ${resume.slug}, not ${slug}`);
  return { slug, start: resume.start, token: resume.token, skip: resume.skip, got: 0 };
}

export function planWith(settings: NetworkSettings) {
  return function plan(ctx: QueryContext<NetworkParams>): Step[] {
    const c = classifyCompany(ctx.query);
    if (typeof c === 'string') throw new SourceError('invalid_query', c);
    const resume = readCursor(ctx.params.cursor);
    if (settings.cookies) {
      if (c.numeric) return [pageStep(c, { skip: 0, resolveOnly: true }, settings)];
      return [feedStep(feedStart(c.key, resume), settings)];
    }
    if (resume && resume.mode !== 'page') throw new SourceError('invalid_query', 'cursor continues the signed-in feed, but this deployment has no NETWORK_POSTS_COOKIES');
    return [pageStep(c, { skip: resume?.skip ?? 0, resolveOnly: false }, settings)];
  };
}
