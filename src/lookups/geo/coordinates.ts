/**
 * Coordinate queries of `/reverse-geocoding`: `<lat> <lng>`, `<lat>,<lng>` or `<lat>, <lng>`.
 * Only plain decimal numbers are accepted: a decimal comma ("40,7 -73,9") or an exponent would make
 * the two forms ambiguous, so they are refused with a message rather than guessed at.
 */
import { SourceError } from '../../sources/_kit/errors.ts';

export interface LatLng {
  lat: number;
  lng: number;
}

// A query longer than this is no coordinate pair; the cap keeps the check cheap for hostile input.
const MAX_QUERY_LENGTH = 100;
const NUMBER = String.raw`[+-]?(?:\d+(?:\.\d*)?|\.\d+)`;
const PAIR = new RegExp(String.raw`^\s*(${NUMBER})\s*(?:,\s*|\s+)(${NUMBER})\s*$`);
const EXPECTED = 'expected "<latitude> <longitude>" or "<latitude>,<longitude>" in decimal degrees';

type Checked = { ok: true; value: LatLng } | { ok: false; message: string };

function check(query: string): Checked {
  const fail = (why: string): Checked => {
    const shown = JSON.stringify(query.length > 40 ? `${query.slice(0, 40)}…` : query);
    return { ok: false, message: `query ${shown} is not a coordinate pair: ${why}` };
  };
  if (typeof query !== 'string') return fail(EXPECTED);
  if (query.length > MAX_QUERY_LENGTH) return fail(EXPECTED);
  const m = PAIR.exec(query);
  if (!m) return fail(EXPECTED);
  // `+ 0` turns -0 into 0 so "-0,0" and "0,0" give the same record.
  const lat = Number(m[1]) + 0;
  const lng = Number(m[2]) + 0;
  const problems: string[] = [];
  if (!(lat >= -90 && lat <= 90)) problems.push(`latitude must be from -90 to 90, got ${m[1]}`);
  if (!(lng >= -180 && lng <= 180)) problems.push(`longitude must be from -180 to 180, got ${m[2]}`);
  if (problems.length) return fail(problems.join('; '));
  return { ok: true, value: { lat, lng } };
}

/**
 * Returns why a query is not a valid coordinate pair, or undefined when it is one.
 *
 * @example
 *   checkCoordinates('40.76, -73.97'); // undefined
 *   checkCoordinates('91,200');
 *   // 'query "91,200" is not a coordinate pair: latitude must be from -90 to 90, got 91; longitude ...'
 */
export function checkCoordinates(query: string): string | undefined {
  const r = check(query);
  return r.ok ? undefined : r.message;
}

/**
 * Parses a coordinate query. Throws `SourceError('invalid_query')` with the message of
 * `checkCoordinates` when the query is not a valid pair.
 *
 * @example
 *   parseCoordinates('40.7624284 -73.973794'); // { lat: 40.7624284, lng: -73.973794 }
 *   parseCoordinates('48.8584,2.2945');        // { lat: 48.8584, lng: 2.2945 }
 */
export function parseCoordinates(query: string): LatLng {
  const r = check(query);
  if (!r.ok) throw new SourceError('invalid_query', r.message);
  return r.value;
}
