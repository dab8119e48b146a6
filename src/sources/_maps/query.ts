/**
 * What a `/maps/search` query item is: a phrase, a place id, a CID, a feature id (engine_id), or a
 * map URL (place, search, `?cid=`, short link). Pure string work; no network.
 */
import { isCid, isEngineId, isPlaceId } from './ids.ts';

export interface Camera {
  lat: number;
  lng: number;
  zoom: number;
}

export type QueryForm =
  | { form: 'phrase'; q: string; camera?: Camera }
  | { form: 'place_id'; id: string }
  | { form: 'cid'; cid: string }
  | { form: 'engine_id'; id: string }
  | { form: 'place_url'; url: string }
  | { form: 'short_url'; url: string }
  | { form: 'invalid'; reason: string };

const GOOGLE_HOST = /^(?:www\.|maps\.)?google\.(?:[a-z]{2,3}|co\.[a-z]{2}|com\.[a-z]{2})$/i;
const SHORT_HOSTS = new Set(['maps.app.goo.gl', 'goo.gl']);
const CAMERA = /@(-?\d{1,3}(?:\.\d+)?),(-?\d{1,3}(?:\.\d+)?)(?:,(\d{1,2}(?:\.\d+)?)z)?/;
const FEATURE_IN_DATA = /!1s(0x[0-9a-f]{1,16}:0x[0-9a-f]{1,16})/i;

/**
 * `@lat,lng,zoomz` (from a URL or the `coordinates` parameter) → camera; null when absent or out of
 * range. A missing zoom reads as 14 (a neighbourhood).
 *
 * @example
 *   parseCamera('@40.7,-73.99,13z') // { lat: 40.7, lng: -73.99, zoom: 13 }
 */
export function parseCamera(s: string | undefined | null): Camera | null {
  if (!s) return null;
  const m = CAMERA.exec(s.startsWith('@') ? s : '@' + s.trim());
  if (!m) return null;
  const lat = Number(m[1]);
  const lng = Number(m[2]);
  const zoom = m[3] === undefined ? 14 : Number(m[3]);
  if (!(lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180 && zoom >= 1 && zoom <= 21)) return null;
  return { lat, lng, zoom };
}

function looksLikeUrl(s: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(s) || /^www\./i.test(s) || /^(?:maps\.)?google\.[a-z.]+\//i.test(s) || /^(?:maps\.app\.)?goo\.gl\//i.test(s);
}

function decodePathPart(p: string): string {
  try {
    return decodeURIComponent(p.replace(/\+/g, ' ')).trim();
  } catch {
    return p.replace(/\+/g, ' ').trim();
  }
}

function fromGoogleUrl(u: URL, raw: string): QueryForm {
  const path = u.pathname;
  const sp = u.searchParams;
  const cid = sp.get('cid') ?? sp.get('ludocid');
  if (cid && isCid(cid)) return { form: 'cid', cid };
  const qp = sp.get('q') ?? sp.get('query') ?? '';
  const pid = sp.get('query_place_id') ?? (qp.startsWith('place_id:') ? qp.slice(9) : null);
  if (pid && isPlaceId(pid)) return { form: 'place_id', id: pid };
  const isMaps = path.startsWith('/maps') || /^maps\./i.test(u.hostname);
  if (!isMaps) return { form: 'invalid', reason: `not a map URL: ${raw}` };
  const camera = parseCamera(path) ?? undefined;
  if (path.startsWith('/maps/place/')) {
    const f = FEATURE_IN_DATA.exec(decodePathPart(path));
    if (f) return { form: 'engine_id', id: f[1].toLowerCase() };
    return { form: 'place_url', url: u.toString() };
  }
  if (path.startsWith('/maps/search/')) {
    const seg = path.slice('/maps/search/'.length).split('/')[0] ?? '';
    const q = seg.startsWith('@') ? '' : decodePathPart(seg);
    const phrase = q || qp.trim();
    if (phrase) return camera ? { form: 'phrase', q: phrase, camera } : { form: 'phrase', q: phrase };
    return { form: 'invalid', reason: `map search URL without a search phrase: ${raw}` };
  }
  if (qp.trim()) return camera ? { form: 'phrase', q: qp.trim(), camera } : { form: 'phrase', q: qp.trim() };
  return { form: 'invalid', reason: `map URL names no place or search: ${raw}` };
}

/**
 * @example
 *   classifyQuery('coffee berlin')                          // { form: 'phrase', q: 'coffee berlin' }
 *   classifyQuery('ChIJDdnwdv0y5xQRRytw1ihZQeU')            // { form: 'place_id', id: ... }
 *   classifyQuery('0x14e732fd76f0d90d:0xe5415928d6702b47')  // { form: 'engine_id', id: ... }
 *   classifyQuery('https://maps.app.goo.gl/abc')            // { form: 'short_url', url: ... }
 */
export function classifyQuery(query: string): QueryForm {
  const s = typeof query === 'string' ? query.trim() : '';
  if (s === '') return { form: 'invalid', reason: 'query is empty' };
  if (isEngineId(s)) return { form: 'engine_id', id: s.toLowerCase() };
  if (isPlaceId(s) && !/\s/.test(s)) return { form: 'place_id', id: s };
  // Ten digits or more: a CID (real ones are 15-20); shorter digit strings stay phrases ("1984").
  if (/^\d{10,20}$/.test(s) && isCid(s)) return { form: 'cid', cid: s };
  if (!looksLikeUrl(s)) return { form: 'phrase', q: s };
  let u: URL;
  try {
    u = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(s) ? s : 'https://' + s);
  } catch {
    return { form: 'invalid', reason: `not a valid URL: ${s}` };
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return { form: 'invalid', reason: `not a web URL: ${s}` };
  const host = u.hostname.toLowerCase();
  if (SHORT_HOSTS.has(host)) {
    if (host === 'goo.gl' && !u.pathname.startsWith('/maps')) return { form: 'invalid', reason: `not a map short link: ${s}` };
    u.protocol = 'https:';
    return { form: 'short_url', url: u.toString() };
  }
  if (!GOOGLE_HOST.test(host)) return { form: 'invalid', reason: `URL of another site (${host}); give a phrase, an id or a map URL` };
  u.protocol = 'https:';
  return fromGoogleUrl(u, s);
}

/**
 * Submit-time check (adapter `checkQuery`) of the map endpoints: a message for a query they cannot run.
 *
 * @example
 *   checkMapsQuery('  ')                       // 'query is empty'
 *   checkMapsQuery('https://example.com/menu') // 'URL of another site (example.com); ...'
 */
export function checkMapsQuery(query: string): string | undefined {
  const f = classifyQuery(query);
  return f.form === 'invalid' ? f.reason : undefined;
}
