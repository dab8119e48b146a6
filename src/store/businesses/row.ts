/**
 * What both stores write for a business and how they search it: the normalised search keys (computed
 * here, in JS, so SQLite and PostgreSQL compare the same bytes) and one WHERE clause builder with `?`
 * placeholders, of which each store supplies only its index-specific parts (names, geo box).
 *
 * @example columnsOf(record) // { name_k: 'joe\'s pizza', city_k: 'austin', ... }
 */
import type { BusinessPage, BusinessQuery, BusinessRecord, GeoFilter, NumRange } from './contract.ts';
import { decodeRecord } from './record-text.ts';
import { NOT_BUSINESS_TYPES } from './kinds.ts';
import { polygonSql } from './polygon.ts';
import { categoryKey } from './category.ts';

export const lower = (s: string | null | undefined): string | null => (s == null || s === '' ? null : s.normalize('NFC').toLowerCase().trim());
export const postalKey = (s: string | null | undefined): string | null => (s ? s.toUpperCase().replace(/\s+/g, '') : null);
export const phoneKey = (s: string | null | undefined): string | null => { const d = (s ?? '').replace(/\D/g, ''); return d || null; };
export const domainKey = (s: string | null | undefined): string | null => {
  if (!s) return null;
  let h = s.trim().toLowerCase();
  try { if (/^[a-z][a-z0-9+.-]*:\/\//.test(h)) h = new URL(h).hostname; } catch { /* a bare host */ }
  h = h.split(/[/?#]/)[0].replace(/^www\./, '');
  return h || null;
};
const bit = (b: boolean | null) => (b == null ? null : b ? 1 : 0);

/** The column values of a record, in COLUMNS order. */
export const COLUMNS = ['name_k', 'country_code', 'state_k', 'city_k', 'county_k', 'postal_k', 'latitude', 'longitude', 'rating', 'reviews',
  'has_site', 'has_phone', 'phone_k', 'domain', 'business_status', 'verified', 'area_service', 'attributes_k', 'located_k'] as const;

/** An attribute as a key: lower-cased, without the `|` that separates keys in `attributes_k`. */
const attributeKey = (s: string) => lower(s.replace(/\|/g, ' '));
/** `|a|b|`: each attribute is found by LIKE '%|a|%' on both stores. */
export const attributesKey = (xs: string[] | undefined): string | null => {
  const ks = [...new Set((xs ?? []).map(attributeKey).filter((k): k is string => !!k))];
  return ks.length ? `|${ks.join('|')}|` : null;
};

export function columnsOf(r: BusinessRecord): unknown[] {
  return [lower(r.name) ?? '', r.country_code ? r.country_code.toUpperCase() : null, lower(r.state), lower(r.city), lower(r.county),
    postalKey(r.postal_code), r.latitude, r.longitude, r.rating, r.reviews, r.site ? 1 : 0, r.phone ? 1 : 0, phoneKey(r.phone),
    domainKey(r.domain ?? r.site), r.business_status, bit(r.verified), bit(r.area_service), attributesKey(r.attributes), r.located_os_id ?? null];
}

export const typeKeys = (r: BusinessRecord): string[] => [...new Set(r.types.map(categoryKey).filter((t): t is string => !!t))];

/** `%`, `_` and `\` taken literally in a LIKE pattern (with ESCAPE '\'). */
export const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => '\\' + c);

/** A bounding box around a geo filter, in degrees (a circle's box is slightly larger than the circle). */
export function boxOf(g: GeoFilter): { south: number; west: number; north: number; east: number } {
  if (g.type === 'bbox') return g;
  if (g.type === 'polygon') {
    const lats = g.points.map((p) => p[0]);
    const lngs = g.points.map((p) => p[1]);
    return { south: Math.min(...lats), north: Math.max(...lats), west: Math.min(...lngs), east: Math.max(...lngs) };
  }
  const dLat = (g.radius_m / 6371008.8) * (180 / Math.PI) * 1.001;
  const cos = Math.cos((g.lat * Math.PI) / 180);
  const dLng = cos < 1e-9 ? 180 : Math.min(180, dLat / cos);
  return { south: Math.max(-90, g.lat - dLat), north: Math.min(90, g.lat + dLat), west: Math.max(-180, g.lng - dLng), east: Math.min(180, g.lng + dLng) };
}

/** Great-circle distance in metres; the same formula as PostgreSQL's `distance_m` (003_businesses.sql). */
export function distanceM(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const r = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lng2 - lng1) * r) / 2) ** 2;
  return 2 * 6371008.8 * Math.asin(Math.sqrt(a));
}

export interface Dialect {
  /** Condition: b's name key contains `pattern` (a LIKE pattern, already escaped and wrapped in %). */
  nameLike(): string;
  /** Condition: b's point lies in the box (west, south, east, north placeholders in that order: the
   *  corners (x, y) = (lng, lat) of PostgreSQL's box, south-west then north-east). */
  inBox(): string;
  /** Type rows carry their business's country and rating (PostgreSQL, 012_business_type_facts.sql):
   *  a type test states them too, so they are tested on the type's index entry. */
  typeFacts?: boolean;
}

/** Open-data rows of `b` the account (the one `?`) has no row of its own for. */
export const UNSHADOWED = 'NOT EXISTS (SELECT 1 FROM businesses o WHERE o.owner = ? AND o.os_id = b.os_id)';
/** Scope (the account twice): own rows and open data; an open-data row is hidden where the account has its own. */
const SCOPE = `(b.owner = ? OR (b.owner = '' AND ${UNSHADOWED}))`;

/** A rating or reviews expression's bounds as conditions on `col`. */
export function rangeOf(col: string, r?: NumRange): { sql: string; arg: number }[] {
  const out: { sql: string; arg: number }[] = [];
  if (r?.min !== undefined) out.push({ sql: `${col} ${r.minStrict ? '>' : '>='} ?`, arg: r.min });
  if (r?.max !== undefined) out.push({ sql: `${col} ${r.maxStrict ? '<' : '<='} ?`, arg: r.max });
  return out;
}

/** The search's country and rating as conditions on a type row `t` (PostgreSQL's type rows carry
 *  them: 012_business_type_facts.sql). */
export function typeFactsOf(q: BusinessQuery): { sql: string; arg: unknown }[] {
  return [...(q.countryCode ? [{ sql: 't.country_code = ?', arg: q.countryCode.toUpperCase() }] : []), ...rangeOf('t.rating', q.rating)];
}

/**
 * The WHERE clause (without `after`) and its arguments. The table is aliased `b`. `after`, a page
 * position, is repeated inside the type test: PostgreSQL derives no range across `t.business = b.id`,
 * and would walk the (type, business) index from its start instead of from the position. `unscoped`:
 * without SCOPE (the caller tests the owner itself).
 */
export function whereOf(q: BusinessQuery, d: Dialect, o: { after?: number; unscoped?: boolean } = {}): { sql: string; args: unknown[] } {
  const { after } = o;
  const c: string[] = [];
  const args: unknown[] = [];
  const add = (sql: string, ...a: unknown[]) => { c.push(sql); args.push(...a); };
  // A list whose every value reduced to no key (the app refuses blank items; `-` is no postal code)
  // matches nothing: `IN ()` is no SQL, and dropping the condition would match everything.
  const list = (col: string, xs: unknown[]) => (xs.length ? add(`${col} IN (${xs.map(() => '?').join(',')})`, ...xs) : add('1 = 0'));
  if (!o.unscoped) add(SCOPE, q.accountId, q.accountId);
  if (q.osIds?.length) {
    // Implied by the scope, stated so that the unique (owner, os_id) index finds the rows (the only
    // index on os_id; 010/011_business_os_id_index.sql).
    add("b.owner IN (?, '')", q.accountId);
    list('b.os_id', q.osIds);
  }
  if (q.countryCode) add('b.country_code = ?', q.countryCode.toUpperCase());
  const keys = (xs: string[]) => xs.map((x) => lower(x)).filter((x): x is string => !!x);
  if (q.states?.length) list('b.state_k', keys(q.states));
  if (q.cities?.length) list('b.city_k', keys(q.cities));
  if (q.counties?.length) list('b.county_k', keys(q.counties));
  if (q.postalCodes?.length) {
    const ps = q.postalCodes.map(postalKey).filter((p): p is string => !!p);
    if (!ps.length) add('1 = 0');
    else add(`(${ps.map(() => 'substr(b.postal_k, 1, ?) = ?').join(' OR ')})`, ...ps.flatMap((p) => [p.length, p]));
  }
  const typed = (not: string, xs: string[]) => {
    if (!xs.length) { if (!not) add('1 = 0'); return; }
    const t = [`t.business = b.id AND t.type_k IN (${xs.map(() => '?').join(',')})`];
    const a: unknown[] = [...xs];
    if (!not && d.typeFacts) for (const f of typeFactsOf(q)) { t.push(f.sql); a.push(f.arg); }
    if (!not && after !== undefined) { t.push('t.business > ?'); a.push(after); }
    add(`${not}EXISTS (SELECT 1 FROM business_types t WHERE ${t.join(' AND ')})`, ...a);
  };
  // broadMatch: a type containing the text (`restaurant` finds `Italian restaurant`).
  const broad = (not: string, xs: string[]) => (!xs.length ? (not ? undefined : add('1 = 0')) :
    add(`${not}EXISTS (SELECT 1 FROM business_types t WHERE t.business = b.id AND (${xs.map(() => "t.type_k LIKE ? ESCAPE '\\'").join(' OR ')}))`,
      ...xs.map((x) => `%${likeEscape(x)}%`)));
  const typeKeysOf = (xs: string[]) => xs.map(categoryKey).filter((x): x is string => !!x);
  if (q.types?.length) (q.broadMatch ? broad : typed)('', typeKeysOf(q.types));
  if (q.ignoreTypes?.length) (q.broadMatch ? broad : typed)('NOT ', typeKeysOf(q.ignoreTypes));
  for (const a of q.attributes ?? []) {
    const k = attributeKey(a);
    if (k) add("b.attributes_k LIKE ? ESCAPE '\\'", q.broadMatch ? `%${likeEscape(k)}%` : `%|${likeEscape(k)}|%`);
  }
  if (q.businessOnly) {
    add(`EXISTS (SELECT 1 FROM business_types t WHERE t.business = b.id AND t.type_k NOT IN (${NOT_BUSINESS_TYPES.map(() => '?').join(',')}))`, ...NOT_BUSINESS_TYPES);
  }
  if (q.locatedIn?.length) list('b.located_k', q.locatedIn);
  if (q.name && lower(q.name)) add(q.nameExclude ? `NOT (${d.nameLike()})` : d.nameLike(), `%${likeEscape(lower(q.name)!)}%`);
  for (const r of [...rangeOf('b.rating', q.rating), ...rangeOf('b.reviews', q.reviews)]) add(r.sql, r.arg);
  if (q.hasWebsite !== undefined) add('b.has_site = ?', q.hasWebsite ? 1 : 0);
  if (q.hasPhone !== undefined) add('b.has_phone = ?', q.hasPhone ? 1 : 0);
  if (q.verified !== undefined) add('b.verified = ?', q.verified ? 1 : 0);
  if (q.areaService !== undefined) add('b.area_service = ?', q.areaService ? 1 : 0);
  if (q.businessStatuses?.length) list('b.business_status', q.businessStatuses);
  if (q.domain) add('b.domain = ?', domainKey(q.domain));
  if (q.phone) {
    const p = phoneKey(q.phone);
    // A phone with no digit matches nothing rather than everything.
    if (p) add("b.phone_k LIKE ? ESCAPE '\\'", `%${p}%`); else c.push('1 = 0');
  }
  for (const g of q.geo ?? []) {
    const box = boxOf(g);
    add(d.inBox(), box.west, box.south, box.east, box.north);
    if (g.type === 'bbox') add('b.latitude >= ? AND b.latitude <= ? AND b.longitude >= ? AND b.longitude <= ?', box.south, box.north, box.west, box.east);
    if (g.type === 'circle') add('distance_m(?, ?, b.latitude, b.longitude) <= ?', g.lat, g.lng, g.radius_m);
    if (g.type === 'polygon') { const p = polygonSql(g.points); add(p.sql, ...p.args); }
  }
  if (q.addedFrom !== undefined) add('b.added >= ?', q.addedFrom * 1000);
  if (q.addedTo !== undefined) add('b.added < ?', (q.addedTo + 1) * 1000);
  if (q.updatedFrom !== undefined) add('b.updated >= ?', q.updatedFrom * 1000);
  if (q.updatedTo !== undefined) add('b.updated < ?', (q.updatedTo + 1) * 1000);
  return { sql: c.join(' AND ') || 'true', args };
}

/**
 * Whether two stored times (ms, never negative) fall in the same whole second: `added` and `updated`
 * are answered (recordOf) and filtered (whereOf) in seconds, so a touch that would only move
 * `updated` within its second is skipped by both stores (issue 37).
 */
export const sameSecond = (a: string, b: string) => `(${a} / 1000 = ${b} / 1000)`;

/** Stored times (ms) of an upserted record: `now`, unless the record carries its own (an import of an
 *  export keeps them). An update keeps the row's `added`. */
export const timesOf = (r: BusinessRecord, now: number) => ({
  added: r.added_timestamp != null ? r.added_timestamp * 1000 : now,
  updated: r.updated_timestamp != null ? r.updated_timestamp * 1000 : now,
});

/** The total a first page already shows: every match, when it holds all of them (no count needed). */
export const knownTotal = (page: BusinessPage, q: BusinessQuery): number | undefined =>
  (q.after === undefined && !page.hasMore ? page.items.length : undefined);

/** A page position (`BusinessQuery.after`): the decimal row id a previous page ended on. */
export function positionOf(after: string): number {
  if (!/^\d{1,15}$/.test(after)) throw new Error(`not a business page position: ${JSON.stringify(after).slice(0, 40)}`);
  return Number(after);
}

/** One record per os_id, the last given winning, in first-seen order: a batch never upserts a row twice. */
export function uniqueByOsId(records: BusinessRecord[]): BusinessRecord[] {
  const by = new Map<string, BusinessRecord>();
  for (const r of records) by.set(r.os_id, r);
  return by.size === records.length ? records : [...by.values()];
}

/** A stored row back to the answered record. */
export function recordOf(row: { record: string; added: number | string; updated: number | string }): BusinessRecord {
  return { ...decodeRecord(row.record), added_timestamp: Math.floor(Number(row.added) / 1000), updated_timestamp: Math.floor(Number(row.updated) / 1000) };
}
