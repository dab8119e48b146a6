/**
 * The few place readers the reviews and places-by-domain adapters need: where the business node
 * sits in a place page, a place body and a map search body, and the place fields a reviews element
 * carries. Positions were learned from the real captures in fixtures/google-maps (see
 * docs/sources-maps-more.md); the full place record is the maps-search adapter's job.
 */
import { arr, at, num, int, str } from '../_kit/positional.ts';
import { parseMaybeXssiJson } from '../_kit/xssi.ts';
import { isEngineId, reviewsIdOfEngineId } from './ids.ts';

/** Place fields of a `/maps/reviews` element (decision 24), minus `query`. */
export interface PlaceSummary {
  name: string | null;
  full_address: string | null;
  engine_id: string | null;
  place_id: string | null;
  location_link: string | null;
  rating: number | null;
  reviews: number | null;
  reviews_id: string | null;
  reviews_link: string | null;
  reviews_per_score: Record<'1' | '2' | '3' | '4' | '5', number> | null;
}

/**
 * Returns the end index (exclusive) of the JSON array or object starting at `start`, honouring
 * strings and escapes; -1 when it never closes (a truncated page).
 * @example jsonEnd('x=[1,"]",[2]];', 2) // 13
 */
export function jsonEnd(text: string, start: number): number {
  let depth = 0;
  let inStr = false;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inStr) {
      if (c === 0x5c) i++; // backslash: skip the escaped char
      else if (c === 0x22) inStr = false;
      continue;
    }
    if (c === 0x22) inStr = true;
    else if (c === 0x5b || c === 0x7b) depth++;
    else if (c === 0x5d || c === 0x7d) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/**
 * The `window.APP_INITIALIZATION_STATE` value of a map page, or null.
 * @example initStateOf('<script>window.APP_INITIALIZATION_STATE=[1,2];</script>') // [1, 2]
 */
export function initStateOf(html: string): unknown[] | null {
  const key = 'APP_INITIALIZATION_STATE=';
  const k = html.indexOf(key);
  if (k < 0) return null;
  const start = k + key.length;
  const end = jsonEnd(html, start);
  if (end < 0) return null;
  try {
    const v = JSON.parse(html.slice(start, end));
    return Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}

/** The business node of a place body (`[6]`), or null when the body holds none. */
export function placeNodeOf(body: unknown): unknown[] | null {
  const node = arr(body, 6);
  if (!node) return null;
  return str(node, 10) !== null || str(node, 11) !== null ? node : null;
}

/**
 * The place body inside a place page: one of the `APP_INITIALIZATION_STATE[3][i]` strings is
 * the same `)]}'`-prefixed JSON `/maps/preview/place` serves (index 6 in the 2023 capture; the
 * index is searched, not assumed).
 * @example placeBodyFromHtml(pageHtml)?.[6][11] // 'Tipsy Sticks'
 */
export function placeBodyFromHtml(html: string): unknown[] | null {
  const st = initStateOf(html);
  const slots = arr(st, 3) ?? [];
  for (const s of [at(slots, 6), ...slots]) {
    if (typeof s !== 'string' || s.length < 10) continue;
    const body = parseMaybeXssiJson(s);
    if (Array.isArray(body) && placeNodeOf(body)) return body;
  }
  return null;
}

/**
 * Business nodes of a map search body: `[0][1][i][14]` (entry 0 is the search's own metadata).
 * A search that resolved to one place answers with a place body instead; that node is returned.
 * @example searchNodesOf(searchBody).length // 20 for the coffee capture
 */
export function searchNodesOf(body: unknown): unknown[][] {
  const out: unknown[][] = [];
  for (const e of arr(body, 0, 1) ?? []) {
    const node = arr(e, 14);
    if (node && (str(node, 10) !== null || str(node, 11) !== null)) out.push(node);
  }
  if (out.length === 0) {
    const single = placeNodeOf(body);
    if (single) out.push(single);
  }
  return out;
}

function scoreCounts(node: unknown[]): PlaceSummary['reviews_per_score'] {
  const c = arr(node, 175, 3);
  if (!c || c.length < 5 || !c.slice(0, 5).every((x) => typeof x === 'number')) return null;
  return { '1': int(c, 0)!, '2': int(c, 1)!, '3': int(c, 2)!, '4': int(c, 3)!, '5': int(c, 4)! };
}

/**
 * Place fields of a business node. Never throws; a missing branch is null.
 * @example placeSummaryOf(node).engine_id // '0x14e732fd76f0d90d:0xe5415928d6702b47'
 */
export function placeSummaryOf(node: unknown[]): PlaceSummary {
  const name = str(node, 11);
  const eidRaw = str(node, 10);
  const engineId = eidRaw && isEngineId(eidRaw) ? eidRaw : null;
  let address = str(node, 39);
  const long = str(node, 18);
  if (!address && long) address = name && long.startsWith(name + ', ') ? long.slice(name.length + 2) : long;
  const link =
    str(node, 27) ??
    (engineId
      ? `https://www.google.com/maps/place/${encodeURIComponent(name ?? '').replace(/%20/g, '+')}/data=!4m2!3m1!1s${engineId}`
      : null);
  return {
    name,
    full_address: address,
    engine_id: engineId,
    place_id: str(node, 78),
    location_link: link,
    rating: num(node, 4, 7),
    reviews: int(node, 4, 8),
    reviews_id: reviewsIdOfEngineId(engineId),
    reviews_link: str(node, 4, 3, 0),
    reviews_per_score: scoreCounts(node),
  };
}

/**
 * The website of a business node (`[7][0]`), unwrapped from Google's `/url?q=` redirect.
 * @example siteOf(node) // 'https://kipriakon.com/'
 */
export function siteOf(node: unknown[]): string | null {
  const raw = str(node, 7, 0);
  if (!raw) return null;
  if (raw.startsWith('/url?')) {
    const q = new URLSearchParams(raw.slice(5)).get('q');
    return q || null;
  }
  return raw;
}
