/**
 * The queries a task searches: its `queries`, or each of its `categories` in each of its `locations`.
 * A location value from `/locations` (`US>New York>Adams`) reads as a phrase (`Adams, New York, US`);
 * with `useZipCodes`, a location of a country with postal data is searched ZIP by ZIP, one query per
 * ZIP code that lies in it (src/lookups/geo/zip-areas.ts), as `<category> <ZIP>, <country code>`. With
 * `enrichLocations: false` a location is the caller's own text, used as written (no ZIP expansion).
 *
 * @example taskQueries({ categories: ['dentist'], locations: ['US>Vermont>Burlington'], useZipCodes: true })
 *   // ['dentist 05401, US', 'dentist 05402, US', 'dentist 05405, US', 'dentist 05406, US']
 */
import { AppError } from './errors.ts';
import { ZIP_COUNTRIES, zipsIn } from '../lookups/geo/zip-areas.ts';

/** Queries one task may expand to (a state searched ZIP by ZIP is up to some 2,700 queries). */
export const TASK_MAX_QUERIES = 50_000;

/** Location `US>New York>Adams` → `Adams, New York, US` for a search phrase. */
const locationPhrase = (loc: string) => loc.split('>').map((s) => s.trim()).filter(Boolean).reverse().join(', ');

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** What each location is searched as: its phrase, or its ZIP codes. */
function searchedAs(loc: string, i: number, body: Record<string, unknown>): string[] {
  if (body.enrichLocations === false) return [loc.trim()];
  const country = loc.split('>')[0].trim().toUpperCase();
  if (body.useZipCodes !== true || !ZIP_COUNTRIES.has(country)) return [locationPhrase(loc)];
  const zips = zipsIn(loc);
  if (!zips) {
    throw new AppError(422, `locations.${i}: ${JSON.stringify(loc.slice(0, 200))} has no ZIP codes in the postal data: give a state, or a city the data names, `
      + `of GET /locations?country=${country}, or leave useZipCodes off`);
  }
  return zips.map((z) => `${z}, ${country}`);
}

export function taskQueries(body: Record<string, unknown>): string[] {
  const queries = strings(body.queries);
  const categories = strings(body.categories);
  if (queries.length || !categories.length) return queries;
  const locations = strings(body.locations);
  if (!locations.length) return categories;
  const places = locations.map((l, i) => searchedAs(l, i, body));
  const total = categories.length * places.reduce((s, p) => s + p.length, 0);
  if (total > TASK_MAX_QUERIES) throw new AppError(422, `categories × locations make ${total} queries; a task takes at most ${TASK_MAX_QUERIES}`);
  return categories.flatMap((c) => places.flatMap((p) => p.map((where) => `${c} ${where}`)));
}
