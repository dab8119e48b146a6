/**
 * Domain matching for `/engine-places-by-domain`: a place matches when its website's registrable
 * domain (public-suffix aware: `shop.example.co.uk` → `example.co.uk`) equals the query's.
 */
import { getDomain } from 'tldts';

/**
 * The registrable domain of a domain or URL, lower-case; null when it has none (an IP, a bare
 * public suffix, garbage). Private suffixes count (`shop.myshopify.com` is its own domain): each
 * tenant of such a host is a different business.
 * @example registrableDomain('https://www.Shop.Example.co.uk/about') // 'example.co.uk'
 */
export function registrableDomain(input: string | null | undefined): string | null {
  if (!input) return null;
  let s = input.trim();
  if (!s) return null;
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(s)) s = 'http://' + s;
  let host: string;
  try {
    host = new URL(s).hostname;
  } catch {
    return null;
  }
  const d = getDomain(host, { allowPrivateDomains: true });
  return d ? d.toLowerCase() : null;
}

/**
 * True when the site belongs to the domain.
 * @example siteMatches('https://kipriakon.com/menu', 'kipriakon.com') // true
 */
export function siteMatches(site: string | null | undefined, domain: string): boolean {
  const d = registrableDomain(site);
  return d !== null && d === domain;
}
