/**
 * The map product's signed-out "limited view" (since 2026-02, reported by open-source review
 * scrapers and SERP trackers): a signed-out `listugcposts` answers 403, a sign-in page stands where
 * reviews belong, or a place's first page holds about five reviews and no next-page token. Each is
 * the site withholding the rest, never the end of the place's reviews (issue 34, item 1): the page's
 * tally says `limited` and the query ends with `limited_view` (src/engine/tally.ts).
 */
import type { FetchedResponse } from '../_kit/adapter.ts';
import { shortBy, type PageTally } from '../_kit/tally.ts';

/** How many reviews the limited view shows a signed-out visitor per order. */
export const LIMITED_VIEW_REVIEWS = 5;

const SIGN_IN = /accounts\.google\.com\/(?:ServiceLogin|v3\/signin|InteractiveLogin)|<title>Sign in[^<]*<\/title>/i;

/**
 * What the answer shows instead of reviews when it is the limited view: a few words, or null.
 * @example limitedViewOf({ status: 403, url, headers: {}, body: '' }) // 'HTTP 403 to a signed-out visitor'
 */
export function limitedViewOf(res: Pick<FetchedResponse, 'status' | 'url' | 'body'>): string | null {
  if (res.status === 401 || res.status === 403) return `HTTP ${res.status} to a signed-out visitor`;
  if (/^https:\/\/accounts\.google\.com\//i.test(res.url)) return 'a sign-in page';
  // Only a page that is not the RPC's JSON is read for a prompt (a review may quote anything).
  if (!/^\s*(?:\)\]\}'|\[)/.test(res.body) && SIGN_IN.test(res.body.slice(0, 200_000))) return 'a sign-in prompt';
  return null;
}

/**
 * One reviews page's tally: `enough` when the query's own bound stopped it (reviewsLimit, cutoff,
 * cutoffRating), `limited` for a first page of at most five reviews without a token from a place
 * that says it has more, `end` when the site gave no more, nothing while paging goes on.
 */
export function pageTally(o: { key: string; stated?: number; page: number; read: number; token: string | null; stop: boolean; more: boolean }): PageTally {
  const t: PageTally = { key: o.key, read: o.read };
  if (o.stated !== undefined) t.stated = o.stated;
  if (o.more) return t;
  if (o.stop) return { ...t, end: 'enough' };
  if (o.page === 0 && o.token === null && o.read <= LIMITED_VIEW_REVIEWS && o.stated !== undefined && shortBy(o.stated, o.read)) {
    return { ...t, end: 'limited', why: `${o.read} reviews and no next-page token` };
  }
  return { ...t, end: 'end' };
}
