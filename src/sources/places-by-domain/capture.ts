/**
 * `trawl parse /engine-places-by-domain <file>`: a saved response of this source → records.
 */
import { readSearchBody, type SearchPage } from '../_maps/search-body.ts';
import { registrableDomain } from './domain.ts';
import { keptOf } from './parse.ts';
import type { PlaceRecord } from './record.ts';

/**
 * Parses a saved map search answer (for `trawl parse /engine-places-by-domain <file>`): all its
 * places, or only those on `domain` when given. Throws an Error for anything else, and
 * `layout_changed` when none is on `domain` while some entries do not read as places.
 * @example parseCapture(readFileSync('search.json', 'utf8'), 'vrisko.gr')
 */
export function parseCapture(text: string, domain?: string): PlaceRecord[] {
  let page: SearchPage;
  try {
    page = readSearchBody(text, { query: domain ?? null });
  } catch (e) {
    throw new Error(`places-by-domain: expected a map search answer (tbm=map): ${(e as Error).message}`);
  }
  if (!domain) return page.places;
  const d = registrableDomain(domain);
  if (!d) throw new Error(`places-by-domain: "${domain}" is not a domain`);
  return keptOf(page, d);
}
