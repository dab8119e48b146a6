/**
 * The filters of `POST /businesses` (interface 4.8) as a store query. The body has already passed its
 * declaration (types, enums, ranges); what is checked here is what a schema cannot say: the grammar
 * of `rating` and `reviews`, and boxes that cannot hold anything. `located_os_id` needs the store (the
 * asked place's other spelling) and is resolved by the caller (./businesses.ts).
 *
 * @example rangeOf('rating', '3-4.5') // { min: 3, max: 4.5 }
 */
import type { BusinessQuery, GeoFilter, NumRange } from '../store/businesses/contract.ts';
import { AppError } from './errors.ts';

const NUM = String.raw`(\d+(?:\.\d+)?)`;
export const EXPRESSION_GRAMMAR = '4.5+ (at least), >4 or >=4, <4 or <=4, 3-4.5 (between, inclusive) or 4 (exactly)';

/** Parses a rating or reviews expression; anything else is a 422 naming the grammar. */
export function rangeOf(field: string, expr: string): NumRange {
  const e = expr.replace(/\s+/g, '');
  let m: RegExpMatchArray | null;
  if ((m = e.match(new RegExp(`^${NUM}\\+$`)))) return { min: Number(m[1]) };
  if ((m = e.match(new RegExp(`^(>=?|<=?)${NUM}$`)))) {
    const n = Number(m[2]);
    return m[1][0] === '>' ? { min: n, minStrict: m[1] === '>' } : { max: n, maxStrict: m[1] === '<' };
  }
  if ((m = e.match(new RegExp(`^${NUM}-${NUM}$`)))) {
    const [a, b] = [Number(m[1]), Number(m[2])];
    if (a > b) throw new AppError(422, `filters.${field}: the range ${expr} is empty (${a} > ${b})`);
    return { min: a, max: b };
  }
  if ((m = e.match(new RegExp(`^${NUM}$`)))) return { min: Number(m[1]), max: Number(m[1]) };
  throw new AppError(422, `filters.${field} must be an expression: ${EXPRESSION_GRAMMAR}; got ${JSON.stringify(expr).slice(0, 60)}`);
}

type Filters = Record<string, any>;

/** Whitespace, byte-order marks and zero-width characters: what a blank value is made of. */
const BLANK = /^[\s\u200b-\u200d\u2060\ufeff]*$/;
export const isBlank = (v: unknown): boolean => typeof v === 'string' && BLANK.test(v);

const LIST_FILTERS = ['os_ids', 'states', 'cities', 'counties', 'postal_codes', 'types', 'ignore_types', 'attributes'] as const;
const TEXT_FILTERS = ['name', 'domain', 'phone', 'rating', 'reviews', 'located_os_id'] as const;

/**
 * A list filter's blank item is a 422 naming it: `postal_codes: [""]` cannot be told from a form's
 * unset field or a typo, and ignoring it would widen the search to everything. A blank text filter
 * is an unset one (forms send "" for an empty field; docs/businesses.md "Blank values").
 */
export function withoutBlanks(f: Filters): Filters {
  for (const k of LIST_FILTERS) {
    const xs = f[k];
    if (!Array.isArray(xs)) continue;
    const i = xs.findIndex(isBlank);
    if (i >= 0) throw new AppError(422, `filters.${k}[${i}] is blank (${JSON.stringify(xs[i])}): give a value, or leave the item out`);
  }
  const out = { ...f };
  for (const k of TEXT_FILTERS) if (isBlank(out[k])) delete out[k];
  return out;
}

/** `limit` is the default (10); the caller sets the page's. */
export function queryOf(accountId: string, filters: Filters): BusinessQuery {
  const f = withoutBlanks(filters);
  const q: BusinessQuery = { accountId, limit: 10 };
  const set = <K extends keyof BusinessQuery>(k: K, v: BusinessQuery[K] | undefined) => { if (v !== undefined && v !== null) q[k] = v; };
  set('osIds', f.os_ids); set('countryCode', f.country_code); set('states', f.states); set('cities', f.cities); set('counties', f.counties);
  set('postalCodes', f.postal_codes); set('types', f.types); set('ignoreTypes', f.ignore_types);
  set('attributes', f.attributes); set('broadMatch', f.broad_match); set('businessOnly', f.business_only); set('name', f.name); set('nameExclude', f.name_exclude);
  if (typeof f.rating === 'string' && f.rating.trim()) q.rating = rangeOf('rating', f.rating);
  if (typeof f.reviews === 'string' && f.reviews.trim()) q.reviews = rangeOf('reviews', f.reviews);
  set('hasWebsite', f.has_website); set('hasPhone', f.has_phone); set('verified', f.verified); set('areaService', f.area_service);
  set('businessStatuses', f.business_statuses); set('domain', f.domain || undefined); set('phone', f.phone || undefined);
  set('addedFrom', f.added_from); set('addedTo', f.added_to); set('updatedFrom', f.updated_from); set('updatedTo', f.updated_to);
  if (Array.isArray(f.geo_filters) && f.geo_filters.length) {
    for (const g of f.geo_filters as GeoFilter[]) {
      if (g.type === 'bbox' && (g.south > g.north || g.west > g.east)) {
        throw new AppError(422, 'filters.geo_filters: a bbox needs south <= north and west <= east (a box across the 180th meridian is two filters\' union, not supported)');
      }
    }
    q.geo = f.geo_filters;
  }
  return q;
}
