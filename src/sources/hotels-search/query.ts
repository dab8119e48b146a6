/**
 * What a `/hotels-search` query item asks for. Three forms:
 * - a result-page link `https://www.google.com/travel/search?q=hotels+in+rome&qs=...`;
 * - a place or hotel link `https://www.google.com/travel/hotels/<place>` (optionally
 *   `.../entity/<entity key>`: that one hotel's own answer, with its sellers);
 * - plain text, e.g. `hotels in istanbul`.
 * Dates, guests, currency and language come from the link's query string: `checkin`/`checkout`
 * (also `check_in_date`/`check_out_date`, YYYY-MM-DD), `adults`, `children`, `curr` (or `currency`),
 * `hl`, `gl`. The `ts`/`qs` state blobs the site adds are opaque and not read.
 */
import { SourceError } from '../_kit/errors.ts';

export interface HotelsQuery {
  /** The search text sent to the site. */
  text: string;
  /** A hotel's entity key: ask for that hotel's own answer. */
  entityKey: string | null;
  checkIn: string | null;
  checkOut: string | null;
  adults: number;
  children: number;
  currency: string;
  language: string;
  region: string | null;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const ENTITY = /\/entity\/([A-Za-z0-9_-]{8,})/;

function isDay(s: string | null): s is string {
  if (!s || !DAY.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

function count(v: string | null, def: number, min: number, name: string): number {
  if (v === null || v === '') return def;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > 20) throw new SourceError('invalid_query', `${name} must be a whole number from ${min} to 20, got ${JSON.stringify(v)}`);
  return n;
}

/**
 * @example readHotelsQuery('https://www.google.com/travel/search?q=hotels%20in%20rome&curr=EUR&checkin=2026-05-01&checkout=2026-05-03')
 *   // { text: 'hotels in rome', currency: 'EUR', checkIn: '2026-05-01', checkOut: '2026-05-03', adults: 2, ... }
 */
export function readHotelsQuery(query: string): HotelsQuery {
  const q = query.trim();
  if (!q) throw new SourceError('invalid_query', 'query is empty: give a hotel-search link or a text like "hotels in rome"');
  const base: HotelsQuery = { text: q, entityKey: null, checkIn: null, checkOut: null, adults: 2, children: 0, currency: 'USD', language: 'en', region: null };
  if (!/^https?:\/\//i.test(q)) return base;
  let u: URL;
  try {
    u = new URL(q);
  } catch {
    throw new SourceError('invalid_query', `not a valid link: ${q}`);
  }
  const path = u.pathname;
  const sp = u.searchParams;
  const entity = ENTITY.exec(path)?.[1] ?? null;
  let text = sp.get('q')?.trim() || '';
  if (!text && path.startsWith('/travel/hotels/')) {
    const place = decodeURIComponent(path.slice('/travel/hotels/'.length).split('/')[0] ?? '').trim();
    if (place && place !== 'entity') text = `${place} hotels`;
  }
  if (!path.startsWith('/travel/search') && !path.startsWith('/travel/hotels')) {
    throw new SourceError('invalid_query', `link is not a hotel-search page (/travel/search?q=... or /travel/hotels/<place>): ${q}`);
  }
  if (!text && !entity) throw new SourceError('invalid_query', `link names no search (no q= and no place): ${q}`);
  const checkIn = sp.get('checkin') ?? sp.get('check_in_date');
  const checkOut = sp.get('checkout') ?? sp.get('check_out_date');
  if ((checkIn !== null || checkOut !== null) && !(isDay(checkIn) && isDay(checkOut) && checkIn < checkOut)) {
    throw new SourceError('invalid_query', `check-in and check-out must both be YYYY-MM-DD dates, check-out after check-in; got ${checkIn} and ${checkOut}`);
  }
  const currency = (sp.get('curr') ?? sp.get('currency') ?? 'USD').toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) throw new SourceError('invalid_query', `currency must be an ISO 4217 code such as EUR, got ${JSON.stringify(currency)}`);
  return {
    text: text || 'hotels',
    entityKey: entity,
    checkIn: checkIn ?? null,
    checkOut: checkOut ?? null,
    adults: count(sp.get('adults'), 2, 1, 'adults'),
    children: count(sp.get('children'), 0, 0, 'children'),
    currency,
    language: sp.get('hl')?.trim() || 'en',
    region: sp.get('gl')?.trim().toLowerCase() || null,
  };
}
