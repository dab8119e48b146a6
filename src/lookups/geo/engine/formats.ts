/**
 * The documented reverse and search endpoints of the three engines and the mapping of their responses.
 * A search answers the same address breakdown as a reverse call, per hit, plus the hit's point:
 * Nominatim `GET /search?q=&format=jsonv2&addressdetails=1&limit=1` (an array; `lat`/`lon` as text),
 * Photon `GET /api?q=&limit=1` and Pelias `GET /v1/search?text=&size=1` (GeoJSON: the point is
 * `geometry.coordinates` as [lon, lat]).
 *
 * Pure functions: URL building and body mapping are tested without a server.
 *
 * - Nominatim: `GET /reverse?format=jsonv2&lat=&lon=&addressdetails=1` → one object with an
 *   `address` breakdown (`house_number`, `road`, `city|town|village|hamlet|municipality`,
 *   `county`, `state`, `postcode`, `country_code` in lower case); `{ "error": ... }` when nothing
 *   is there.
 * - Photon: `GET /reverse?lat=&lon=&limit=1` → GeoJSON FeatureCollection; `properties` has
 *   `housenumber`, `street`, `postcode`, `city`, `county`, `state`, `countrycode`, and `name`
 *   (the street itself when `type` is `street`).
 * - Pelias: `GET /v1/reverse?point.lat=&point.lon=&size=1` → GeoJSON FeatureCollection;
 *   `properties` has `housenumber`, `street`, `postalcode`, `locality|localadmin`, `county`,
 *   `region`, `country_code` (newer) or `country_a` (ISO alpha-3).
 */
import { iso1A2Code } from '@rapideditor/country-coder';
import type { EngineKind } from './settings.ts';
import { firstStr, isObject, str, type EngineAddress } from './address.ts';

function base(url: string): string {
  return url.replace(/\/+$/, '');
}

/**
 * The reverse URL of an engine for a point.
 *
 * @example reverseUrl('nominatim', 'http://127.0.0.1:8080', 40.76, -73.97)
 *   // 'http://127.0.0.1:8080/reverse?format=jsonv2&lat=40.76&lon=-73.97&addressdetails=1'
 */
export function reverseUrl(kind: EngineKind, url: string, lat: number, lng: number): string {
  switch (kind) {
    case 'nominatim':
      return `${base(url)}/reverse?format=jsonv2&lat=${lat}&lon=${lng}&addressdetails=1`;
    case 'photon':
      return `${base(url)}/reverse?lat=${lat}&lon=${lng}&limit=1`;
    case 'pelias':
      return `${base(url)}/v1/reverse?point.lat=${lat}&point.lon=${lng}&size=1`;
  }
}

function countryCode(v: unknown): string | null {
  const s = str(v);
  if (!s) return null;
  if (/^[A-Za-z]{2}$/.test(s)) return s.toUpperCase();
  // Pelias' country_a is ISO alpha-3; country-coder knows the alpha-2 for it.
  if (/^[A-Za-z]{3}$/.test(s)) return iso1A2Code(s.toUpperCase()) ?? null;
  return null;
}

function hasAny(a: EngineAddress): boolean {
  return Object.values(a).some((v) => v !== null);
}

function fromNominatim(body: unknown): EngineAddress | null {
  if (!isObject(body) || 'error' in body || !isObject(body.address)) return null;
  const a = body.address;
  return {
    road: firstStr(a.road, a.pedestrian, a.footway, a.path, a.cycleway),
    house_number: str(a.house_number),
    postal_code: str(a.postcode),
    city: firstStr(a.city, a.town, a.village, a.hamlet, a.municipality),
    county: str(a.county),
    state: str(a.state),
    country_code: countryCode(a.country_code),
  };
}

function firstFeatureProps(body: unknown): Record<string, unknown> | null {
  if (!isObject(body) || !Array.isArray(body.features) || body.features.length === 0) return null;
  const f = body.features[0];
  return isObject(f) && isObject(f.properties) ? f.properties : null;
}

function fromPhoton(body: unknown): EngineAddress | null {
  const p = firstFeatureProps(body);
  if (!p) return null;
  return {
    road: firstStr(p.street, p.type === 'street' ? p.name : undefined),
    house_number: str(p.housenumber),
    postal_code: str(p.postcode),
    city: firstStr(p.city, p.type === 'city' ? p.name : undefined),
    county: str(p.county),
    state: str(p.state),
    country_code: countryCode(p.countrycode),
  };
}

function fromPelias(body: unknown): EngineAddress | null {
  const p = firstFeatureProps(body);
  if (!p) return null;
  return {
    road: str(p.street),
    house_number: str(p.housenumber),
    postal_code: str(p.postalcode),
    city: firstStr(p.locality, p.localadmin),
    county: str(p.county),
    state: str(p.region),
    country_code: countryCode(p.country_code) ?? countryCode(p.country_a),
  };
}

/**
 * Maps a decoded response body of an engine; null when it names no address (nothing found, or a
 * shape that is not the documented one).
 *
 * @example parseReverse('photon', { type: 'FeatureCollection', features: [{ properties: { street: 'Main St' } }] })
 */
export function parseReverse(kind: EngineKind, body: unknown): EngineAddress | null {
  const a = kind === 'nominatim' ? fromNominatim(body) : kind === 'photon' ? fromPhoton(body) : fromPelias(body);
  return a && hasAny(a) ? a : null;
}

/** A search hit: the point and what the engine says is there. */
export interface EngineHit { lat: number; lng: number; address: EngineAddress | null }

/**
 * The search URL of an engine for an address or place text.
 *
 * @example searchUrl('nominatim', 'http://127.0.0.1:8080', 'Palo Alto')
 *   // 'http://127.0.0.1:8080/search?q=Palo%20Alto&format=jsonv2&addressdetails=1&limit=1'
 */
export function searchUrl(kind: EngineKind, url: string, text: string): string {
  const q = encodeURIComponent(text);
  switch (kind) {
    case 'nominatim':
      return `${base(url)}/search?q=${q}&format=jsonv2&addressdetails=1&limit=1`;
    case 'photon':
      return `${base(url)}/api?q=${q}&limit=1`;
    case 'pelias':
      return `${base(url)}/v1/search?text=${q}&size=1`;
  }
}

const coordinate = (v: unknown, max: number): number | null => {
  const n = typeof v === 'string' && v.trim() ? Number(v) : typeof v === 'number' ? v : NaN;
  return Number.isFinite(n) && Math.abs(n) <= max ? n : null;
};

/**
 * Maps a decoded search body to its first hit; null when nothing was found or the shape is not the
 * documented one (a hit without a valid point is no hit).
 *
 * @example parseSearch('nominatim', [{ lat: '37.44', lon: '-122.14', address: { city: 'Palo Alto' } }]) // { lat: 37.44, lng: -122.14, address: {...} }
 */
export function parseSearch(kind: EngineKind, body: unknown): EngineHit | null {
  if (kind === 'nominatim') {
    const first = Array.isArray(body) ? body[0] : undefined;
    if (!isObject(first)) return null;
    const lat = coordinate(first.lat, 90);
    const lng = coordinate(first.lon, 180);
    return lat === null || lng === null ? null : { lat, lng, address: parseReverse(kind, first) };
  }
  if (!isObject(body) || !Array.isArray(body.features) || !isObject(body.features[0])) return null;
  const g = body.features[0].geometry;
  const point = isObject(g) && Array.isArray(g.coordinates) ? g.coordinates : [];
  const lat = coordinate(point[1], 90);
  const lng = coordinate(point[0], 180);
  return lat === null || lng === null ? null : { lat, lng, address: parseReverse(kind, { features: [body.features[0]] }) };
}
