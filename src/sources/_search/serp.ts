/**
 * What the search-engine verticals (events, careers) share and no other site needs: the results
 * URL, the engine's redirect links, and the wording of an empty results page. (HTML, JSON-LD and
 * dates come from `_kit`.)
 */
import type { ParamsOf } from '../../contract/endpoint.ts';
import type { searchEvents } from '../../contract/endpoints/maps.ts';

/** The events declaration's parameters: a superset of the careers one's (no `uule` there). */
export type VerticalParams = ParamsOf<typeof searchEvents>;

/**
 * One results page of a vertical (`ibp=htl;events`, `ibp=htl;jobs`); `start` pages by 10.
 * @example verticalUrl('jazz berlin', 'events', 1, { language: 'de' })
 *   // 'https://www.google.com/search?q=jazz%20berlin&ibp=htl%3Bevents&hl=de&start=10'
 */
export function verticalUrl(query: string, vertical: 'events' | 'jobs', page: number, p: VerticalParams): string {
  let u = `https://www.google.com/search?q=${encodeURIComponent(query)}&ibp=${encodeURIComponent(`htl;${vertical}`)}&hl=${encodeURIComponent(p.language || 'en')}`;
  if (p.region) u += `&gl=${encodeURIComponent(p.region.toLowerCase())}`;
  if (p.uule) u += `&uule=${encodeURIComponent(p.uule)}`;
  if (page > 0) u += `&start=${10 * page}`;
  return u;
}

/**
 * The target of a Google redirect (`/url?q=...`, `/url?url=...`), absolute URLs unchanged,
 * other relative links made absolute on www.google.com; null for `#` and `javascript:`.
 * @example unwrapLink('/url?q=https://a.example/x&sa=U') // 'https://a.example/x'
 */
export function unwrapLink(href: string | null | undefined): string | null {
  if (!href || href.startsWith('#') || /^javascript:/i.test(href)) return null;
  let u: URL;
  try {
    u = new URL(href, 'https://www.google.com/');
  } catch {
    return null;
  }
  if (/(^|\.)google\.[a-z.]+$/.test(u.hostname) && u.pathname === '/url') {
    const t = u.searchParams.get('q') ?? u.searchParams.get('url');
    if (t && /^https?:\/\//i.test(t)) return t;
  }
  return u.toString();
}

/** Text that says the vertical found nothing (so zero cards is an answer, not a layout change). */
export const EMPTY_MARKERS = /can['’]t find (any )?(events|jobs)|no (more )?(events|jobs)|did not match any|no results found/i;
