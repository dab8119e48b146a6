/**
 * Query items of `/rentals-reviews`: a listing link on any country host (`/rooms/<id>`,
 * `/rooms/plus/<id>`, any query string) or a listing id (digits, or the site's relay id, base64 of
 * `StayListing:<id>`). Ids stay strings: they exceed 2^53.
 *
 * @example
 *   readListingQuery('https://www.airbnb.co.uk/rooms/plus/38817969?adults=2') // { id: '38817969' }
 *   readListingQuery('U3RheUxpc3Rpbmc6Mzg4MTc5Njk=') // { id: '38817969' }
 */
const HOST = /^(?:[a-z0-9-]+\.)*airbnb\.[a-z]{2,3}(?:\.[a-z]{2})?$/i;
const ID = /^\d{1,20}$/;

function relayId(s: string): string | null {
  if (!/^[A-Za-z0-9+/_-]{16,}={0,2}$/.test(s)) return null;
  const m = /^(?:Demand)?StayListing:(\d{1,20})$/.exec(Buffer.from(s, 'base64').toString('utf8'));
  return m?.[1] ?? null;
}

export function readListingQuery(raw: string): { id: string } | { error: string } {
  const q = raw.trim();
  if (!q) return { error: 'empty query' };
  if (ID.test(q)) return { id: q };
  const relay = relayId(q);
  if (relay) return { id: relay };
  const looksLikeUrl = /^https?:\/\//i.test(q) || /^(?:[a-z0-9-]+\.)*airbnb\.[a-z.]+\//i.test(q);
  if (!looksLikeUrl) return { error: `query "${q.slice(0, 100)}" is neither a listing link (/rooms/<id>) nor a listing id` };
  let u: URL;
  try {
    u = new URL(/^https?:\/\//i.test(q) ? q : `https://${q}`);
  } catch {
    return { error: `query "${q.slice(0, 100)}" is not a valid link` };
  }
  if (!HOST.test(u.hostname)) return { error: `query "${q.slice(0, 100)}" is not a home-rental listing link (host ${u.hostname})` };
  const m = /^\/rooms\/(?:plus\/)?(\d{1,20})(?:[/?#]|$)/.exec(u.pathname);
  if (!m) return { error: `query "${q.slice(0, 100)}" is not a listing link (expected /rooms/<id> or /rooms/plus/<id>)` };
  return { id: m[1] };
}
