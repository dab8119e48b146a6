/**
 * What a `/lodging-prices` query item asks for:
 * - a hotel link `https://www.booking.com/hotel/<cc>/<slug>.html` (also `<slug>.<lang>.html`),
 *   with or without the stay in its query string: `checkin`/`checkout` (YYYY-MM-DD, or the older
 *   `checkin_year`/`checkin_month`/`checkin_monthday` triples), `group_adults`, `group_children`,
 *   `no_rooms`, `selected_currency`;
 * - a hotel id (digits).
 * Without dates the default stay is asked: check-in tomorrow (UTC), one night, two adults; records
 * say so (`default_stay`).
 */
import { SourceError } from '../_kit/errors.ts';
import type { Stay } from './record.ts';

export type LodgingQuery =
  | { kind: 'link'; cc: string; slug: string; lang: string | null; stay: Stay; currency: string | null }
  | { kind: 'id'; id: string; stay: Stay; currency: string | null };

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isDay = (s: string | null): s is string => !!s && DAY.test(s) && new Date(`${s}T00:00:00Z`).toISOString().slice(0, 10) === s;
const addDays = (iso: string, n: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** The default stay: check-in tomorrow (UTC), one night, two adults. */
export function defaultStay(now: number): Stay {
  const today = new Date(now).toISOString().slice(0, 10);
  const checkIn = addDays(today, 1);
  return { checkIn, checkOut: addDays(checkIn, 1), adults: 2, children: 0, rooms: 1, isDefault: true };
}

function triple(sp: URLSearchParams, prefix: string): string | null {
  const y = sp.get(`${prefix}_year`), m = sp.get(`${prefix}_month`), d = sp.get(`${prefix}_monthday`);
  if (!y || !m || !d) return null;
  return `${y.padStart(4, '0')}-${m.padStart(2, '0')}-${d.padStart(2, '0')}`;
}

function count(v: string | null, def: number, min: number, max: number, name: string): number {
  if (v === null || v === '') return def;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) throw new SourceError('invalid_query', `${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(v)}`);
  return n;
}

/** The stay a link names (or the default stay when it names no dates). */
export function stayOf(sp: URLSearchParams, now: number): Stay {
  const ci = sp.get('checkin') || triple(sp, 'checkin');
  const co = sp.get('checkout') || triple(sp, 'checkout');
  const adults = count(sp.get('group_adults'), 2, 1, 30, 'group_adults');
  const children = count(sp.get('group_children'), 0, 0, 10, 'group_children');
  const rooms = count(sp.get('no_rooms'), 1, 1, 30, 'no_rooms');
  if (ci === null && co === null) return { ...defaultStay(now), adults, children, rooms };
  if (!isDay(ci) || !isDay(co) || ci >= co) throw new SourceError('invalid_query', `checkin and checkout must both be YYYY-MM-DD dates, checkout after checkin; got ${ci} and ${co}`);
  return { checkIn: ci, checkOut: co, adults, children, rooms, isDefault: false };
}

/** @example readLodgingQuery('https://www.booking.com/hotel/mt/central-suites.html', 0).kind // 'link' */
export function readLodgingQuery(query: string, now: number): LodgingQuery {
  const q = query.trim();
  if (!q) throw new SourceError('invalid_query', 'query is empty: give a hotel link (https://www.booking.com/hotel/<cc>/<name>.html) or a hotel id');
  if (/^\d{1,12}$/.test(q)) return { kind: 'id', id: q, stay: defaultStay(now), currency: null };
  let u: URL;
  try {
    u = new URL(q);
  } catch {
    throw new SourceError('invalid_query', `not a hotel link or id: ${q}`);
  }
  if (!/(^|\.)booking\.com$/i.test(u.hostname)) throw new SourceError('invalid_query', `not a link of the lodging site (booking.com): ${q}`);
  const m = /^\/hotel\/([a-z]{2})\/([a-z0-9][a-z0-9-_]*)(?:\.([a-z]{2}(?:-[a-z]{2})?))?\.html$/i.exec(u.pathname);
  if (!m) throw new SourceError('invalid_query', `not a hotel page link (/hotel/<cc>/<name>.html): ${q}`);
  const cur = u.searchParams.get('selected_currency');
  const currency = cur && /^[A-Za-z]{3}$/.test(cur) ? cur.toUpperCase() : null;
  return { kind: 'link', cc: m[1]!.toLowerCase(), slug: m[2]!, lang: m[3]?.toLowerCase() ?? null, stay: stayOf(u.searchParams, now), currency };
}
