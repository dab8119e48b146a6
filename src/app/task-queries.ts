/**
 * The queries a task searches: its `queries`, or each of its `categories` in each of its `locations`.
 * - On an endpoint that covers areas (/maps/search), a location value from `/locations`
 *   (`US>Nevada`) is an area: the category is the phrase and the location its area, covered view by
 *   view as `/maps/search?area=` does (docs/areas.md); the task lists it as `dentist in US>Nevada`.
 * - Elsewhere a location reads as a phrase (`US>New York>Adams` → `dentist Adams, New York, US`).
 * - With `useZipCodes`, a location of a country with postal data is searched ZIP by ZIP, one query per
 *   ZIP code that lies in it (src/lookups/geo/zip-areas.ts), as `<category> <ZIP>, <country code>`.
 * - With `enrichLocations: false` a location is the caller's own text, used as written in the phrase
 *   (no area, no ZIP expansion).
 *
 * @example taskQueries({ categories: ['dentist'], locations: ['US>Vermont>Burlington'], useZipCodes: true }, false).queries
 *   // ['dentist 05401, US', 'dentist 05402, US', 'dentist 05405, US', 'dentist 05406, US']
 * @example taskQueries({ categories: ['dentist'], locations: ['US>Nevada'] }, true)
 *   // { queries: ['dentist'], areas: ['US>Nevada'], shown: ['dentist in US>Nevada'] }
 */
import { AppError } from './errors.ts';
import { ZIP_COUNTRIES, zipsIn } from '../lookups/geo/zip-areas.ts';
import { checkArea } from '../lookups/geo/area/resolve.ts';

/** Queries one task may expand to (a state searched ZIP by ZIP is up to some 2,700 queries). */
export const TASK_MAX_QUERIES = 50_000;

export interface TaskQueries {
  /** The phrases the request searches, in order. */
  queries: string[];
  /** Each query's area (a location value), null for a phrase query; absent when no query has one. */
  areas?: (string | null)[];
  /** What the task lists in `metadata.queries`: each query, with its area when it has one. */
  shown: string[];
}

/** Location `US>New York>Adams` → `Adams, New York, US` for a search phrase. */
const locationPhrase = (loc: string) => loc.split('>').map((s) => s.trim()).filter(Boolean).reverse().join(', ');

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** Where a location is searched: words added to the phrase, or an area. */
type Where = { words: string } | { area: string };

/** What each location is searched as: its area, its phrase, or its ZIP codes. */
function searchedAs(loc: string, i: number, body: Record<string, unknown>, areas: boolean): Where[] {
  if (body.enrichLocations === false) return [{ words: loc.trim() }];
  const country = loc.split('>')[0].trim().toUpperCase();
  if (body.useZipCodes === true && ZIP_COUNTRIES.has(country)) {
    const zips = zipsIn(loc);
    if (!zips) {
      throw new AppError(422, `locations.${i}: ${JSON.stringify(loc.slice(0, 200))} has no ZIP codes in the postal data: give a state, or a city the data names, `
        + `of GET /locations?country=${country}, or leave useZipCodes off`);
    }
    return zips.map((z) => ({ words: `${z}, ${country}` }));
  }
  if (!areas) return [{ words: locationPhrase(loc) }];
  const why = checkArea(loc);
  if (why) throw new AppError(422, `locations.${i}: ${why}`);
  return [{ area: loc.trim() }];
}

/** `areas`: the endpoint covers areas (it has the `area` parameter). */
export function taskQueries(body: Record<string, unknown>, areas: boolean): TaskQueries {
  const queries = strings(body.queries);
  const categories = strings(body.categories);
  if (queries.length || !categories.length) return { queries, shown: queries };
  const locations = strings(body.locations);
  if (!locations.length) return { queries: categories, shown: categories };
  const places = locations.map((l, i) => searchedAs(l, i, body, areas));
  const total = categories.length * places.reduce((s, p) => s + p.length, 0);
  if (total > TASK_MAX_QUERIES) throw new AppError(422, `categories × locations make ${total} queries; a task takes at most ${TASK_MAX_QUERIES}`);
  const each = categories.flatMap((c) => places.flat().map((w) => ('area' in w ? { q: c, area: w.area, shown: `${c} in ${w.area}` } : { q: `${c} ${w.words}`, area: null, shown: `${c} ${w.words}` })));
  const out: TaskQueries = { queries: each.map((e) => e.q), shown: each.map((e) => e.shown) };
  if (each.some((e) => e.area !== null)) out.areas = each.map((e) => e.area);
  return out;
}
