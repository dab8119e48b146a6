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
 *
 * `limit`, `next_page_cursor` and the `cursor` parameter are the runner's (decision 23): it cuts at
 * the limit and signs the steps still to run into each record's cursor.
 */
import type { QueryContext, Step } from '../_kit/adapter.ts';
import { SourceError } from '../_kit/errors.ts';
import { classifyCompany, companyPageUrl, type CompanyQuery } from './query.ts';
import type { NetworkParams } from './record.ts';
import type { NetworkSettings } from './settings.ts';

export const FEED_PAGE = 20;

/** Which feed page a step asks for: the slug, the offset and the token the previous answer gave. */
export interface FeedState {
  slug: string;
  start: number;
  token: string | null;
  [k: string]: unknown;
}

export interface PageStepState {
  /** Only resolving a numeric id to a slug for the signed-in feed. */
  resolveOnly: boolean;
  [k: string]: unknown;
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

/** One feed page. The session cookies and the `csrf-token` header come from the executor. */
export function feedStep(s: FeedState): Step {
  return {
    kind: 'feed', url: feedUrl(s.slug, s.start, FEED_PAGE, s.token), expect: 'json', state: { ...s },
    headers: {
      accept: 'application/vnd.linkedin.normalized+json+2.1', 'x-restli-protocol-version': '2.0.0', 'x-li-lang': 'en_US',
      referer: `https://www.linkedin.com/company/${encodeURIComponent(s.slug)}/posts/`,
    },
  };
}

export function pageStep(c: Pick<CompanyQuery, 'key' | 'section'>, state: PageStepState): Step {
  return { kind: 'page', url: companyPageUrl(c), expect: 'html', state: { ...state } };
}

export function planWith(settings: NetworkSettings) {
  return function plan(ctx: QueryContext<NetworkParams>): Step[] {
    const c = classifyCompany(ctx.query);
    if (typeof c === 'string') throw new SourceError('invalid_query', c);
    if (settings.signedIn) {
      if (c.numeric) return [pageStep(c, { resolveOnly: true })];
      return [feedStep({ slug: c.key, start: 0, token: null })];
    }
    return [pageStep(c, { resolveOnly: false })];
  };
}
