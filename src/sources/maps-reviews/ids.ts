/**
 * What a `/maps/reviews` (or other map) query names: a place by one of its ids, a map URL, or a
 * search phrase. The map product knows a place by three ids: the feature id `0x<hex>:0x<hex>`
 * (our `engine_id`), the Places API id (`ChIJ...`, our `place_id`) and the CID, which is the
 * second half of the feature id written in decimal.
 */

export type PlaceRef =
  | { kind: 'engine_id'; id: string }
  | { kind: 'place_id'; id: string }
  | { kind: 'cid'; id: string }
  | { kind: 'phrase'; text: string };

const ENGINE_ID = /^0x[0-9a-f]{1,16}:0x[0-9a-f]{1,16}$/i;
const ENGINE_ID_IN = /0x[0-9a-f]{1,16}:0x[0-9a-f]{1,16}/i;
// Places API ids are URL-safe base64 of a protobuf; the common prefixes are ChIJ (places) and
// GhIJ / Ei / Ej (addresses, routes). A bare word like "coffee" must not match.
const PLACE_ID = /^(?:ChIJ|GhIJ|EhI|Ei|Ej)[A-Za-z0-9_-]{14,}$/;
const CID = /^\d{10,20}$/; // CIDs are 64-bit numbers: shorter digit strings are postcodes, not ids

/** True for a feature id such as `0x14e732fd76f0d90d:0xe5415928d6702b47`. */
export function isEngineId(s: string): boolean {
  return ENGINE_ID.test(s);
}

/**
 * The `reviews_id` of a place: its CID read as a signed 64-bit number, the form the place records
 * of maps-search use too.
 * @example reviewsIdOfEngineId('0x14e732fd76f0d90d:0xe5415928d6702b47') // '-1927161133606622393'
 */
export function reviewsIdOfEngineId(engineId: string | null | undefined): string | null {
  const cid = cidOfEngineId(engineId);
  return cid === null || cid === '0' ? null : BigInt.asIntN(64, BigInt(cid)).toString();
}

/**
 * The CID (decimal of the feature id's second half), or null.
 * @example cidOfEngineId('0x14e732fd76f0d90d:0xe5415928d6702b47') // '16519582940102929223'
 */
export function cidOfEngineId(engineId: string | null | undefined): string | null {
  if (!engineId || !ENGINE_ID.test(engineId)) return null;
  return BigInt(engineId.split(':')[1]).toString(10);
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** Reads a place reference out of a map URL; null when the URL names none. */
function refFromUrl(raw: string): PlaceRef | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return null;
  }
  const host = u.hostname.toLowerCase();
  if (!/(^|\.)google\.[a-z.]+$/.test(host) && !/^maps\.app\.goo\.gl$/.test(host) && !/(^|\.)goo\.gl$/.test(host)) return null;
  const whole = safeDecode(u.pathname + u.search + u.hash);
  const eid = ENGINE_ID_IN.exec(whole);
  if (eid) return { kind: 'engine_id', id: eid[0].toLowerCase() };
  const cid = u.searchParams.get('cid') ?? u.searchParams.get('ludocid');
  if (cid && CID.test(cid)) return { kind: 'cid', id: cid };
  const pid = u.searchParams.get('query_place_id') ?? u.searchParams.get('place_id') ?? u.searchParams.get('placeid');
  if (pid && PLACE_ID.test(pid)) return { kind: 'place_id', id: pid };
  const q = u.searchParams.get('q') ?? u.searchParams.get('query');
  if (q) {
    const m = /^place_id:(.+)$/.exec(q);
    if (m && PLACE_ID.test(m[1])) return { kind: 'place_id', id: m[1] };
    return { kind: 'phrase', text: q };
  }
  // /maps/place/<name>/@lat,lng,... or /maps/search/<phrase>/...
  const seg = /\/maps\/(?:place|search)\/([^/@]+)/.exec(u.pathname);
  if (seg) return { kind: 'phrase', text: safeDecode(seg[1]).trim() };
  return null;
}

/**
 * Classifies one query. Throws nothing: an unusable query comes back as `{ kind: 'phrase' }`
 * with empty text, which `checkQuery` rejects.
 * @example parsePlaceRef('ChIJDdnwdv0y5xQRRytw1ihZQeU') // { kind: 'place_id', id: 'ChIJ...' }
 * @example parsePlaceRef('https://www.google.com/maps?cid=123456789') // { kind: 'cid', id: '123456789' }
 */
export function parsePlaceRef(query: string): PlaceRef {
  const q = query.trim();
  if (ENGINE_ID.test(q)) return { kind: 'engine_id', id: q.toLowerCase() };
  if (q.startsWith('place_id:') && PLACE_ID.test(q.slice(9))) return { kind: 'place_id', id: q.slice(9) };
  if (PLACE_ID.test(q)) return { kind: 'place_id', id: q };
  if (CID.test(q)) return { kind: 'cid', id: q };
  if (/^https?:\/\//i.test(q)) {
    const r = refFromUrl(q);
    if (r) return r;
  }
  return { kind: 'phrase', text: q };
}
