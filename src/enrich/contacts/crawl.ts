/**
 * Fetching a place's website for contacts: the home page with robots.txt beside it, then up to
 * `maxPages` likely pages (contact, imprint, team, about) of the same site at once (the executor
 * applies the SSRF guard on every hop, per-host limits, size and time limits). The pages fetched are kept so
 * other enrichments read them without fetching again (company insights).
 *
 * @example const visit = await crawlSite('https://example.com', { fetch, maxPages: 3, region: 'US' })
 */
import type { FetchedResponse, Step } from '../../sources/_kit/adapter.ts';
import { isSourceError } from '../../sources/_kit/errors.ts';
import { registrableDomain } from '../../sources/places-by-domain/domain.ts';
import { extractPage, type PageFacts } from './extract.ts';
import { parseRobots, robotsAllows, type Robots } from './robots.ts';

export type SiteFetch = (step: Step) => Promise<FetchedResponse>;

export interface SitePage { url: string; html: string; facts: PageFacts }

export interface SiteVisit {
  /** reachable: the home page answered; redirected: it answered from another site (`finalUrl`);
   *  error: it did not (`error`); null: the place has no site. */
  status: 'reachable' | 'redirected' | 'error' | null;
  finalUrl: string | null;
  error: string | null;
  pages: SitePage[];
}

export interface CrawlOptions {
  fetch: SiteFetch;
  /** Pages after the home page. */
  maxPages: number;
  region: string | null;
}

/** A website page larger than this is not read (a place's contact page is a few hundred kB at most). */
export const SITE_PAGE_MAX_BYTES = 2 * 1024 * 1024;

const page = (url: string): Step => ({ kind: 'site-page', url, expect: 'html', userUrl: true, maxBytes: SITE_PAGE_MAX_BYTES });
/** The site a URL belongs to: its registrable domain, or its host for IPs and single-label hosts. */
const siteOf = (url: string) => registrableDomain(url) ?? new URL(url).hostname;

function errorText(e: unknown): string {
  if (isSourceError(e)) return `${e.type}: ${e.message}`;
  return e instanceof Error ? e.message : String(e);
}

/** An http(s) URL for a place's `site` (`example.com` → `http://example.com/`), or null. */
export function siteUrl(site: unknown): string | null {
  if (typeof site !== 'string' || !site.trim()) return null;
  const s = /^[a-z][a-z0-9+.-]*:\/\//i.test(site.trim()) ? site.trim() : `http://${site.trim()}`;
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

/** The `User-agent: *` rules of an origin's robots.txt; none when it has none or does not answer. */
async function robotsOf(url: string, fetch: SiteFetch): Promise<Robots> {
  try {
    const r = await fetch({ kind: 'site-robots', url: new URL('/robots.txt', url).href, expect: 'text', userUrl: true, maxBytes: 512 * 1024 });
    if (r.status === 200) return parseRobots(r.body);
  } catch {
    // No robots.txt (or unreachable): nothing disallowed.
  }
  return { rules: [] };
}

const sameOrigin = (a: string, b: string) => new URL(a).origin === new URL(b).origin;

export async function crawlSite(site: unknown, o: CrawlOptions): Promise<SiteVisit> {
  const start = siteUrl(site);
  if (!start) return { status: null, finalUrl: null, error: null, pages: [] };
  // robots.txt is fetched beside the home page, not after it: a site then costs two round trips
  // (home, then its likely pages at once), not one per page (bench/contacts.bench.ts).
  const robotsAtStart = o.maxPages > 0 ? robotsOf(start, o.fetch) : null;
  let home: FetchedResponse;
  try {
    home = await o.fetch(page(start));
  } catch (e) {
    return { status: 'error', finalUrl: null, error: errorText(e), pages: [] };
  }
  const moved = siteOf(home.url) !== siteOf(start);
  const pages: SitePage[] = [{ url: home.url, html: home.body, facts: extractPage(home.body, home.url, o.region) }];
  const visit: SiteVisit = { status: moved ? 'redirected' : 'reachable', finalUrl: moved ? home.url : null, error: null, pages };
  const todo = pages[0].facts.links.slice(0, Math.max(0, o.maxPages));
  if (!todo.length) return visit;
  // A home page answered from another origin is governed by that origin's robots.txt.
  const robots = robotsAtStart && sameOrigin(home.url, start) ? await robotsAtStart : await robotsOf(home.url, o.fetch);
  // The likely pages at once: the executor's per-host limits decide how many are in flight.
  const more = await Promise.all(todo.map(async (url): Promise<SitePage | null> => {
    if (!robotsAllows(robots, new URL(url).pathname)) return null;
    try {
      const r = await o.fetch(page(url));
      // A page that left the site (a redirect elsewhere) is not this site's.
      if (siteOf(r.url) !== siteOf(home.url)) return null;
      return { url: r.url, html: r.body, facts: extractPage(r.body, r.url, o.region) };
    } catch {
      // One missing page (404, timeout, too large) leaves the others.
      return null;
    }
  }));
  for (const p of more) if (p) pages.push(p);
  return visit;
}
