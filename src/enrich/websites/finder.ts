/**
 * `company_websites_finder`: a website for a place that has none. Candidates, in order:
 *  1. the registrable domains of the place's own links (`menu_link`, `reservation_links`,
 *     `booking_appointment_link`, `order_links`) that are not a platform (maps, social networks,
 *     booking/ordering/review sites);
 *  2. a web search (DuckDuckGo's HTML results) for `<name> <city>`, its first results that are not
 *     a platform.
 * Rule (no guessing): a candidate is accepted only when its home page, fetched through the executor,
 * mentions the place's name (normalised as for chains) and its city or its phone (compared as E.164).
 * The first accepted fills `site` (the page's final URL origin) and `site_source` (`place_links` or
 * `web_search`); none: both stay null. A place that has a site keeps it (`site_source: place`).
 */
import type { FetchedResponse, Step } from '../../sources/_kit/adapter.ts';
import { attr, parseHtml, select, textOf, type Element } from '../../sources/_kit/html.ts';
import { registrableDomain } from '../../sources/places-by-domain/domain.ts';
import { normalizeName } from '../chain/normalize.ts';
import { extractPage, normalisePhone } from '../contacts/extract.ts';
import { SITE_PAGE_MAX_BYTES } from '../contacts/crawl.ts';

type Rec = Record<string, unknown>;
export type Fetch = (s: Step) => Promise<FetchedResponse>;

/** Registrable domains that host many businesses' pages, never one business's own site. */
const PLATFORMS = new Set([
  'google.com', 'goo.gl', 'g.page', 'facebook.com', 'instagram.com', 'twitter.com', 'x.com', 'linkedin.com', 'youtube.com', 'tiktok.com', 'pinterest.com',
  'yelp.com', 'tripadvisor.com', 'foursquare.com', 'trustpilot.com', 'wikipedia.org', 'opentable.com', 'resy.com', 'thefork.com', 'booksy.com',
  'fresha.com', 'treatwell.com', 'ubereats.com', 'doordash.com', 'grubhub.com', 'deliveroo.com', 'wolt.com', 'efood.gr', 'just-eat.com',
  'booking.com', 'airbnb.com', 'expedia.com', 'yellowpages.com', 'duckduckgo.com', 'bing.com', 'apple.com', 'wa.me', 'whatsapp.com',
  'linktr.ee', 'squareup.com', 'toasttab.com', 'sevenrooms.com', 'quandoo.com', 'calendly.com', 'setmore.com', 'vagaro.com', 'mindbodyonline.com',
]);
/** A domain's first label is enough for country variants (`google.gr`, `tripadvisor.co.uk`). */
const PLATFORM_NAMES = new Set([...PLATFORMS].map((d) => d.split('.')[0]));

export function isPlatform(domain: string): boolean {
  return PLATFORMS.has(domain) || PLATFORM_NAMES.has(domain.split('.')[0]);
}

const SEARCH_RESULTS = 5;

/** The place's own links' domains, not platforms, in field order. */
export function ownLinkDomains(r: Rec): string[] {
  const links = [r.menu_link, r.booking_appointment_link, ...(Array.isArray(r.reservation_links) ? r.reservation_links : []),
    ...(Array.isArray(r.order_links) ? r.order_links.map((o) => (o && typeof o === 'object' ? (o as Rec).link ?? (o as Rec).url : o)) : [])];
  const out: string[] = [];
  for (const l of links) {
    const d = typeof l === 'string' ? registrableDomain(l) : null;
    if (d && !isPlatform(d) && !out.includes(d)) out.push(d);
  }
  return out;
}

/** The web search step for a place. */
export function searchStep(r: Rec): Step | null {
  const name = typeof r.name === 'string' ? r.name.trim() : '';
  if (!name) return null;
  const q = [name, typeof r.city === 'string' ? r.city : ''].join(' ').trim();
  return { kind: 'site-search', url: `https://html.duckduckgo.com/html/?q=${encodeURIComponent(q)}`, expect: 'html', maxBytes: SITE_PAGE_MAX_BYTES };
}

/**
 * Result links of the results-page layouts known (samples: ./constructed-results-*.html): the no-JS
 * page's `a.result__a` (older layout, click-redirect hrefs) or the `h2` link of each
 * `#links .web-result` (newer layout, direct hrefs), and the lite page's `a.result-link`.
 */
const RESULT_LINKS = 'a.result__a, #links .web-result h2 a, a.result-link';
/** Ads: a `result--ad` block (no-JS page) or a `result-sponsored` row (lite page). */
const AD = /(?:^|\s)(?:result--ad|result-sponsored)(?:\s|$)/;

function isAd(e: Element): boolean {
  for (let p: Element | null = e; p && p.type === 'tag'; p = p.parent as Element | null) if (AD.test(attr(p, 'class') ?? '')) return true;
  return false;
}

/** Where a result link leads: the click redirect's `uddg` target, else the href itself; null for the engine's own pages. */
function resultTarget(href: string): string | null {
  try {
    const u = new URL(href, 'https://duckduckgo.com');
    if (/(?:^|\.)duckduckgo\.com$/i.test(u.hostname)) return u.pathname.startsWith('/l/') ? u.searchParams.get('uddg') : null;
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

/** Result domains of a DuckDuckGo results page (no-JS or lite, any layout above), ads and platforms left out. */
export function searchResultDomains(html: string): string[] {
  const out: string[] = [];
  for (const a of select(parseHtml(html), RESULT_LINKS)) {
    if (isAd(a)) continue;
    const target = resultTarget(attr(a, 'href') ?? '');
    const d = target ? registrableDomain(target) : null;
    if (d && !isPlatform(d) && !out.includes(d)) out.push(d);
    if (out.length >= SEARCH_RESULTS) break;
  }
  return out;
}

/** The acceptance rule: the page mentions the name, and the city or the phone. */
export function pageMentionsPlace(html: string, url: string, r: Rec): boolean {
  const text = ` ${normalizeName(textOf(parseHtml(html)))} `;
  const name = typeof r.name === 'string' ? normalizeName(r.name) : '';
  if (!name || !text.includes(` ${name} `)) return false;
  const city = typeof r.city === 'string' ? normalizeName(r.city) : '';
  if (city && text.includes(` ${city} `)) return true;
  const region = (r.country_code as string | null) ?? null;
  const phone = typeof r.phone === 'string' ? normalisePhone(r.phone, region) : null;
  return !!phone && extractPage(html, url, region).phones.includes(phone);
}

async function accepted(domain: string, r: Rec, fetch: Fetch): Promise<string | null> {
  try {
    const res = await fetch({ kind: 'site-page', url: `https://${domain}/`, expect: 'html', userUrl: true, maxBytes: SITE_PAGE_MAX_BYTES });
    if (res.status !== 200 || !pageMentionsPlace(res.body, res.url, r)) return null;
    return `${new URL(res.url).origin}/`;
  } catch {
    return null;
  }
}

export async function findWebsite(r: Rec, fetch: Fetch): Promise<{ site: string | null; site_source: string | null }> {
  if (typeof r.site === 'string' && r.site.trim()) return { site: r.site, site_source: 'place' };
  for (const d of ownLinkDomains(r)) {
    const site = await accepted(d, r, fetch);
    if (site) return { site, site_source: 'place_links' };
  }
  const step = searchStep(r);
  if (step) {
    let domains: string[] = [];
    try {
      const res = await fetch(step);
      if (res.status === 200) domains = searchResultDomains(res.body);
    } catch {
      // The search engine refused or failed: no candidate from it.
    }
    for (const d of domains) {
      const site = await accepted(d, r, fetch);
      if (site) return { site, site_source: 'web_search' };
    }
  }
  return { site: null, site_source: null };
}
