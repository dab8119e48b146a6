/**
 * `/engine-places-by-domain` adapter (unit `place`): map search for the domain, keep the places
 * whose website is on it; a query with no such place yields `{query, no_result: true}`.
 *
 * @example
 *   const [step] = placesByDomain.plan({ query: 'kipriakon.com', params: {} });
 *   const out = placesByDomain.parse(step, response, ctx); // matching place records + next page
 *   placesByDomain.finish!(allRecords, ctx);
 */
import type { WebAdapter } from '../_kit/adapter.ts';
import { parseSearchBody } from '../maps-search/search-body.ts';
import { registrableDomain, siteMatches } from './domain.ts';
import { filterByDomain, finish, parse } from './parse.ts';
import { checkQuery, plan } from './plan.ts';
import { isNoResult, type NoResult, type PlacesByDomainParams, type SiteRecord } from './record.ts';

export const placesByDomain: WebAdapter<PlacesByDomainParams, SiteRecord | NoResult> = {
  kind: 'web',
  endpoint: '/engine-places-by-domain',
  unit: 'place',
  checkQuery,
  plan,
  parse: parse as WebAdapter<PlacesByDomainParams, SiteRecord | NoResult>['parse'],
  finish,
};

/**
 * Parses a saved map search answer (for `trawl parse /engine-places-by-domain <file>`): all its
 * places, or only those on `domain` when given. Throws an Error for anything else.
 * @example parseCapture(readFileSync('search.json', 'utf8'), 'vrisko.gr')
 */
export function parseCapture(text: string, domain?: string): SiteRecord[] {
  let all: SiteRecord[];
  try {
    all = parseSearchBody(text, { query: domain ?? null }) as unknown as SiteRecord[];
  } catch (e) {
    throw new Error(`places-by-domain: expected a map search answer (tbm=map): ${(e as Error).message}`);
  }
  if (!domain) return all;
  const d = registrableDomain(domain);
  if (!d) throw new Error(`places-by-domain: "${domain}" is not a domain`);
  return filterByDomain(all, d);
}

export { parse, finish, registrableDomain, siteMatches, filterByDomain, isNoResult };
export type { PlacesByDomainParams, SiteRecord, NoResult };
