/**
 * The walk a search page takes, chosen by rule, the same on both stores: the index whose entries give
 * the candidates in id order (so the page stops after `limit + 1` matches), the other filters tested on
 * each candidate. Chosen by which filters are present, never by how common their values are, so a
 * store may plan a page once for any values (PostgreSQL's generic plans, ./postgres.ts) and a rare
 * value walks as little as a common one.
 *
 * @example driverOf({ accountId: 'a', limit: 10, cities: ['Paris'], rating: { min: 4 } }) // { kind: 'column', column: 'city_k', value: 'paris' }
 */
import type { BusinessQuery } from './contract.ts';
import { domainKey, lower } from './row.ts';

/** A column with an index whose entries for one value are in id order. */
export type DriverColumn = 'domain' | 'city_k' | 'located_k' | 'state_k' | 'county_k' | 'country_code';

/** The index of each driver column, by the same name on both stores (004/005_business*.sql). */
export const DRIVER_INDEX: Record<DriverColumn, string> = {
  domain: 'businesses_by_domain', city_k: 'businesses_by_city', located_k: 'businesses_by_located',
  state_k: 'businesses_by_state', county_k: 'businesses_by_county', country_code: 'businesses_by_country',
};

export type Driver =
  /** The os_id list: the unique (owner, os_id) index. */
  | { kind: 'ids' }
  /** The first geo filter's box: its candidates from the point index, sorted. */
  | { kind: 'geo' }
  /** A name of three characters or more: the trigram index (the only walk that depends on the value). */
  | { kind: 'name'; pattern: string }
  /** One value of an indexed column. */
  | { kind: 'column'; column: DriverColumn; value: string }
  /** One type: its entries in `business_types`. */
  | { kind: 'type'; type: string }
  /** No driver: the table in id order. */
  | { kind: 'table' };

/** The driver of a search, most selective kind first. */
export function driverOf(q: BusinessQuery): Driver {
  if (q.osIds?.length) return { kind: 'ids' };
  if (q.geo?.length) return { kind: 'geo' };
  const name = lower(q.name);
  // The trigram indexes need three characters; a shorter name is a plain test on each row.
  if (name && !q.nameExclude && [...name].length >= 3) return { kind: 'name', pattern: name };
  const column = (c: DriverColumn, value: string | null | undefined): Driver | null => (value ? { kind: 'column', column: c, value } : null);
  const one = (xs?: string[]) => (xs?.length === 1 ? lower(xs[0]) : null);
  // With broadMatch a type is a substring of the stored one: no equality to walk.
  const type = q.broadMatch ? null : one(q.types);
  return column('domain', q.domain ? domainKey(q.domain) : null)
    ?? column('city_k', one(q.cities))
    ?? column('located_k', q.locatedIn?.length === 1 ? q.locatedIn[0] : null)
    ?? (type ? { kind: 'type', type } : null)
    ?? column('state_k', one(q.states))
    ?? column('county_k', one(q.counties))
    ?? column('country_code', q.countryCode ? q.countryCode.toUpperCase() : null)
    ?? { kind: 'table' };
}
