/**
 * What a `/realestate-search` query item asks for:
 * - location text (`san francisco, ca`, a ZIP code): the site's search page for it;
 * - a search link (`https://www.zillow.com/san-francisco-ca/`, `.../rentals/`, `.../sold/`,
 *   `/homes/for_sale/<place>_rb/`), optionally with `?searchQueryState=<JSON>` (its map bounds let
 *   the search go straight to the search API);
 * - a property link (`/homedetails/<slug>/<zpid>_zpid/`): that one property.
 * The filter: a link that states one (path `/rentals`, `/for_rent`, `/sold`, `/recently_sold`,
 * `/for_sale`, or `filterState` in its state) keeps it; otherwise `mainFilter` decides.
 */
import { SourceError } from '../_kit/errors.ts';
import type { Box } from '../_kit/area.ts';
import { SITE } from './listing.ts';
import type { MainFilter } from './record.ts';

export type EstateQuery =
  | { kind: 'page'; url: string; filter: MainFilter }
  | { kind: 'state'; state: Record<string, unknown>; bounds: Box; filter: MainFilter }
  | { kind: 'property'; url: string };

const HOSTS = /^(www\.)?zillow\.com$/i;

function filterOfState(st: Record<string, unknown>): MainFilter | null {
  const f = st.filterState as Record<string, { value?: unknown }> | undefined;
  if (!f || typeof f !== 'object') return null;
  const on = (...keys: string[]) => keys.some((k) => f[k]?.value === true);
  if (on('rs', 'isRecentlySold')) return 'sold';
  if (on('fr', 'isForRent')) return 'for_rent';
  return null;
}

function filterOfPath(path: string): MainFilter | null {
  const p = path.toLowerCase();
  if (/\/(rentals|for_rent|apartments)(\/|$)/.test(p)) return 'for_rent';
  if (/\/(sold|recently_sold)(\/|$)/.test(p)) return 'sold';
  if (/\/for_sale(\/|$)/.test(p)) return 'for_sale';
  return null;
}

/** The map bounds of a search state, when it has sane ones. */
export function boundsOf(st: Record<string, unknown> | null | undefined): Box | null {
  const m = st?.mapBounds as Record<string, unknown> | undefined;
  if (!m) return null;
  const [n, s, e, w] = [m.north, m.south, m.east, m.west];
  if (![n, s, e, w].every((v) => typeof v === 'number' && Number.isFinite(v))) return null;
  const b = { n: n as number, s: s as number, e: e as number, w: w as number };
  return b.n > b.s && b.e > b.w ? b : null;
}

/**
 * The search page of a location text.
 * @example textPageUrl('san francisco, ca', 'for_rent') // 'https://www.zillow.com/homes/for_rent/san-francisco,-ca_rb/'
 */
export function textPageUrl(text: string, filter: MainFilter): string {
  const slug = encodeURIComponent(text.trim().replace(/\s+/g, '-')).replace(/%2C/gi, ',');
  const seg = filter === 'for_rent' ? 'for_rent/' : filter === 'sold' ? 'recently_sold/' : '';
  return `${SITE}/homes/${seg}${slug}_rb/`;
}

/** @example readEstateQuery('94109', 'sold') // { kind: 'page', url: 'https://www.zillow.com/homes/recently_sold/94109_rb/', filter: 'sold' } */
export function readEstateQuery(query: string, mainFilter: MainFilter = 'for_sale'): EstateQuery {
  const q = query.trim();
  if (!q) throw new SourceError('invalid_query', 'query is empty: give a location ("san francisco, ca", a ZIP code) or a search link');
  if (!/^https?:\/\//i.test(q)) return { kind: 'page', url: textPageUrl(q, mainFilter), filter: mainFilter };
  let u: URL;
  try {
    u = new URL(q);
  } catch {
    throw new SourceError('invalid_query', `not a valid link: ${q}`);
  }
  if (!HOSTS.test(u.hostname)) throw new SourceError('invalid_query', `not a link of the real-estate site (www.zillow.com): ${q}`);
  if (/\/homedetails\/|_zpid\/?$/.test(u.pathname)) {
    if (!/\d+_zpid/.test(u.pathname)) throw new SourceError('invalid_query', `property link without a property id (<digits>_zpid): ${q}`);
    return { kind: 'property', url: `${SITE}${u.pathname}` };
  }
  const raw = u.searchParams.get('searchQueryState');
  let state: Record<string, unknown> | null = null;
  if (raw) {
    try {
      const v = JSON.parse(raw);
      if (v && typeof v === 'object' && !Array.isArray(v)) state = v;
    } catch {
      throw new SourceError('invalid_query', `searchQueryState of the link is not JSON: ${raw.slice(0, 80)}`);
    }
  }
  const filter = (state && filterOfState(state)) ?? filterOfPath(u.pathname) ?? mainFilter;
  const bounds = boundsOf(state);
  if (state && bounds) return { kind: 'state', state, bounds, filter };
  return { kind: 'page', url: `${SITE}${u.pathname}${u.search}`, filter };
}
