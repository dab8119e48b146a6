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

/** `areas`: the endpoint covers areas (it has the `area` parameter).
 *  Each distinct location is resolved once (10,000 locations over 905 regions are 905 look-ups), and
 *  the queries are counted (categories × the places of each location) before any is built, so an
 *  oversized task is refused by arithmetic (issue 39: 10,000 × a state's 2,593 ZIPs built 26 million
 *  strings before the 422). It reads the postal and place data on first use: the API runs it off its
 *  thread (./checks.ts). */
export function taskQueries(body: Record<string, unknown>, areas: boolean): TaskQueries {
  const queries = strings(body.queries);
  const categories = strings(body.categories);
  if (queries.length || !categories.length) return { queries, shown: queries };
  const locations = strings(body.locations);
  if (!locations.length) return { queries: categories, shown: categories };
  const seen = new Map<string, Where[]>();
  const places = locations.map((l, i) => {
    let p = seen.get(l);
    if (!p) seen.set(l, (p = searchedAs(l, i, body, areas)));
    return p;
  });
  let each = 0;
  for (const p of places) each += p.length;
  const total = categories.length * each;
  if (total > TASK_MAX_QUERIES) throw new AppError(422, `categories × locations make ${total} queries; a task takes at most ${TASK_MAX_QUERIES}`);
  const out: TaskQueries = { queries: [], shown: [] };
  const where = places.flat();
  const withAreas = where.some((w) => 'area' in w);
  if (withAreas) out.areas = [];
  for (const c of categories) {
    for (const w of where) {
      if ('area' in w) {
        out.queries.push(c);
        out.shown.push(`${c} in ${w.area}`);
        out.areas!.push(w.area);
      } else {
        out.queries.push(`${c} ${w.words}`);
        out.shown.push(`${c} ${w.words}`);
        out.areas?.push(null);
      }
    }
  }
  return out;
}
