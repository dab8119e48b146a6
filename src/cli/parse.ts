/**
 * `trawl parse <endpoint path> <file>`: prints, as one JSON array, the records the endpoint returns
 * for one captured response (HTML or JSON, with or without the anti-XSSI prefix, as the site served
 * it). A file this endpoint does not understand exits non-zero with the parser's reason.
 *
 * @example  npx trawl parse /maps/search ../shared/fixtures/google-maps/search_tbm-map_coffee_2024-12.json
 */
import { readFile } from 'node:fs/promises';
import * as mapsSearch from '../sources/maps-search/index.ts';
import * as mapsReviews from '../sources/maps-reviews/index.ts';
import * as placesByDomain from '../sources/places-by-domain/index.ts';
import * as searchEvents from '../sources/search-events/index.ts';
import * as searchCareers from '../sources/search-careers/index.ts';
import * as mapsAutocomplete from '../sources/maps-autocomplete/index.ts';
import * as hotelsSearch from '../sources/hotels-search/index.ts';

/** Endpoint → the parser of any response kind its adapter reads. */
export const CAPTURE_PARSERS: Record<string, (text: string) => unknown[]> = {
  '/maps/search': (t) => mapsSearch.parseCapture(t),
  '/maps/reviews': (t) => mapsReviews.parseCapture(t),
  '/engine-places-by-domain': (t) => placesByDomain.parseCapture(t),
  '/engine-search-events': (t) => searchEvents.parseCapture(t),
  '/engine-search-careers': (t) => searchCareers.parseCapture(t),
  '/engine-maps-autocomplete': (t) => mapsAutocomplete.parseCapture(t),
  '/hotels-search': (t) => hotelsSearch.parseCapture(t),
};

export async function parseCommand(endpoint: string | undefined, file: string | undefined): Promise<void> {
  if (!endpoint || !file) {
    process.stderr.write(`usage: trawl parse <endpoint path> <file>\nendpoints: ${Object.keys(CAPTURE_PARSERS).join(', ')}\n`);
    process.exit(2);
  }
  const parse = CAPTURE_PARSERS[endpoint.startsWith('/') ? endpoint : `/${endpoint}`];
  if (!parse) {
    process.stderr.write(`trawl parse: no parser for ${endpoint}; endpoints with one: ${Object.keys(CAPTURE_PARSERS).join(', ')}\n`);
    process.exit(2);
  }
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    process.stderr.write(`trawl parse: cannot read ${file}: ${(e as Error).message}\n`);
    process.exit(2);
  }
  try {
    process.stdout.write(`${JSON.stringify(parse(text))}\n`);
  } catch (e) {
    process.stderr.write(`trawl parse: ${file} is not a response ${endpoint} understands: ${(e as Error).message}\n`);
    process.exit(1);
  }
}
