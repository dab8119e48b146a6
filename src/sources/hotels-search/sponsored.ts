/**
 * Sponsored hotels of a search answer. Google puts its paid placements in their own block, ahead of
 * the organic list (`[71, {"300000000": [.., .., [entry, ...]]}]` in the answers seen so far; the
 * block is there and empty when no hotel paid), and an entry there has another layout from an
 * organic one: `[0]` name, `[1]` the ad's click link, `[2]` per-night price as shown, `[3]` photos,
 * `[4]` reviews, `[5]` rating, `[6]` seller, `[9]` amenity codes (a flat list, not the organic
 * `[offered, id]` pairs), `[10]` class, `[13]` a base64 id holding the map CID only (not a whole
 * feature id), `[16]` `[lat, lng]`, `[19]` `[check-in, check-out, nights, ...]` as ISO dates,
 * `[20]` `[.., .., null, exact price, taxes]`. Slots as publicly documented by the open-source
 * `trvl` client and as the real hotel answer in fixtures/google-hotels carries them (nine ads);
 * entries are found by shape (name at `[0]`, a position at `[16]`), wherever the block sits.
 */
import { amountOf, currencyOf, toMinorUnit } from '../_kit/money.ts';
import { arr, int, num, str } from '../_kit/positional.ts';
import type { HotelRecord } from './record.ts';

const isLatLng = (v: unknown): boolean =>
  Array.isArray(v) && v.length === 2 && typeof v[0] === 'number' && typeof v[1] === 'number' && Math.abs(v[0]) <= 90 && Math.abs(v[1]) <= 180;

/** A sponsored entry: a list of 17 or more with a name at `[0]`, a position at `[16]` and a price. */
export function isSponsoredEntry(n: unknown): n is unknown[] {
  if (!Array.isArray(n) || n.length < 17) return false;
  if (typeof n[0] !== 'string' || !n[0].trim()) return false;
  return isLatLng(n[16]) && (typeof n[2] === 'string' || Array.isArray(n[20]));
}

/** The first string of a subtree that is an entity key (base64 holding a knowledge-graph id). */
function entityKeyIn(n: unknown, kgmidOf: (k: string) => string | null, depth = 0): string | null {
  if (typeof n === 'string') return /^C[A-Za-z0-9_-]{20,}={0,2}$/.test(n) && kgmidOf(n) ? n : null;
  if (!Array.isArray(n) || depth > 6) return null;
  for (const c of n) {
    const k = entityKeyIn(c, kgmidOf, depth + 1);
    if (k) return k;
  }
  return null;
}

const isoDay = (v: string | null): string | null =>
  v && /^\d{4}-\d{2}-\d{2}$/.test(v) && new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v ? v : null;

/** Photo links; the ads give them protocol-relative (`//lh6.googleusercontent.com/...`). */
function photosOf(n: unknown, out: string[] = [], depth = 0): string[] {
  if (typeof n === 'string' && /^(https?:)?\/\/[^/]/.test(n)) {
    const url = n.startsWith('//') ? `https:${n}` : n;
    if (!out.includes(url)) out.push(url);
  }
  else if (Array.isArray(n) && depth < 6) for (const c of n) photosOf(c, out, depth + 1);
  return out;
}

/**
 * The per-night price: the exact number of `[20]` when it agrees with the shown text (a moved slot
 * must not put another number there), else the text's amount.
 */
function priceOf(e: unknown[], text: string | null): number | null {
  const shown = amountOf(text);
  const exact = num(e, 20, 3);
  if (exact === null || exact <= 0) return shown;
  if (shown === null) return text === null ? exact : null;
  return Math.abs(exact - shown) <= Math.max(1, shown * 0.02) ? exact : shown;
}

/**
 * One sponsored entry → record (`sponsored: true`). `answerCurrency` is the currency the organic
 * entries of the same answer state; a text with its own ISO code wins, a bare sign only fills in.
 */
export function sponsoredOf(
  e: unknown[],
  query: string,
  answerCurrency: string | null,
  kgmidOf: (k: string) => string | null,
): HotelRecord {
  const priceText = str(e, 2);
  const code = priceText ? /\b([A-Z]{3})\b/.exec(priceText)?.[1] ?? null : null;
  const currency = code ?? answerCurrency ?? currencyOf(priceText);
  const entityKey = entityKeyIn(e, kgmidOf);
  const stars = int(e, 10);
  const rating = num(e, 5);
  const reviews = int(e, 4);
  const seller = str(e, 6);
  const checkIn = isoDay(str(e, 19, 0));
  const checkOut = isoDay(str(e, 19, 1));
  const stay = checkIn && checkOut && checkIn < checkOut;
  return {
    query,
    name: str(e, 0)!.trim(),
    hotel_id: entityKey,
    latitude: num(e, 16, 0),
    longitude: num(e, 16, 1),
    // The exact number is a float32 (196.4600067138672): kept to the currency's minor unit.
    price: toMinorUnit(priceOf(e, priceText), currency),
    total_price: null,
    currency,
    price_text: priceText,
    rating: rating !== null && rating >= 1 && rating <= 5 ? rating : null,
    reviews: reviews !== null && reviews >= 0 ? reviews : null,
    stars: stars !== null && stars >= 1 && stars <= 5 ? stars : null,
    provider: seller && seller.trim() ? seller.trim() : null,
    check_in_date: stay ? checkIn : null,
    check_out_date: stay ? checkOut : null,
    photos: photosOf(arr(e, 3)),
    // The flat amenity codes of an ad are not the organic ids: none is named rather than misnamed.
    amenities: [],
    link: entityKey ? `https://www.google.com/travel/hotels/entity/${entityKey}` : null,
    next_page_cursor: null,
    engine_id: null,
    kgmid: entityKey ? kgmidOf(entityKey) : null,
    site_hotel_id: null,
    stars_text: null,
    reviews_per_score: null,
    check_in_time: null,
    check_out_time: null,
    site: null,
    address: null,
    phone: null,
    description: null,
    sponsored: true,
  };
}
