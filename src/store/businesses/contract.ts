/**
 * The business database part of the store (issue 13, interface 4.8). Kept apart from the request
 * store's contract: its own tables (migrations `*_businesses.sql`), its own conformance suite
 * (./conformance.ts), reached through `businessStoreOf(store)` (./index.ts).
 *
 * Scope: a row belongs to an owner, the account whose request found it, or `OPEN_DATA` ('') for
 * imported open data. A search sees its own account's rows plus open data; when both hold the same
 * `os_id` the account's own row wins (it was scraped, so it is the richer one).
 */
import type { Static } from '@sinclair/typebox';
import type { businessRecord } from '../../contract/records.ts';

/** The business database record as stored and answered: the contract's declaration. */
export type BusinessRecord = Static<typeof businessRecord>;

export const OPEN_DATA = '';

/** A numeric range; either end may be open. `min`/`max` inclusive unless the *Open flag says strict. */
export interface NumRange { min?: number; max?: number; minStrict?: boolean; maxStrict?: boolean }

/** Geo filters in degrees and metres. */
export type GeoFilter =
  | { type: 'circle'; lat: number; lng: number; radius_m: number }
  | { type: 'bbox'; south: number; west: number; north: number; east: number }
  /** Vertices as [lat, lng], in order, planar in degrees (the edge from the last back to the first closes it). */
  | { type: 'polygon'; points: [number, number][] };

/** A search, already validated and normalised (src/app/businesses.ts builds it from the body). */
export interface BusinessQuery {
  /** The searching account: sees its own rows and open data. */
  accountId: string;
  osIds?: string[];
  countryCode?: string;
  states?: string[];
  cities?: string[];
  counties?: string[];
  postalCodes?: string[];
  types?: string[];
  ignoreTypes?: string[];
  /** Has every one of these attributes (whole, case-insensitive; contained with broadMatch). */
  attributes?: string[];
  /** types, ignoreTypes and attributes match a value containing the text instead of the whole value. */
  broadMatch?: boolean;
  /** Only rows with at least one type that is not a place of the map (a park, a neighbourhood: ./kinds.ts). */
  businessOnly?: boolean;
  /** Located in the place with any of these os_ids (the app resolves the asked os_id to its spellings). */
  locatedIn?: string[];
  name?: string;
  nameExclude?: boolean;
  rating?: NumRange;
  reviews?: NumRange;
  hasWebsite?: boolean;
  hasPhone?: boolean;
  verified?: boolean;
  areaService?: boolean;
  businessStatuses?: string[];
  domain?: string;
  phone?: string;
  /** Every geo filter must hold (an intersection). */
  geo?: GeoFilter[];
  /** Unix seconds, inclusive. */
  addedFrom?: number; addedTo?: number; updatedFrom?: number; updatedTo?: number;
  /** Keyset: only rows after this position (a previous page's `last`). Pages follow the row id, the
   *  order rows were first stored in, so every index an equality filter uses serves them in order. */
  after?: string;
  limit: number;
  includeTotal?: boolean;
}

export interface BusinessPage {
  items: BusinessRecord[];
  hasMore: boolean;
  /** The position of the page's last item, for the next page's `after` (absent on an empty page). */
  last?: string;
  /** Only with includeTotal: every match, ignoring `after` and `limit`. */
  total?: number;
}

export interface BusinessStore {
  /** Inserts or updates by (owner, os_id); `now` in Unix ms, the times unless a record carries its own
   *  `added_timestamp`/`updated_timestamp` (seconds; an import of an export). Returns how many were new. */
  upsertBusinesses(owner: string, records: BusinessRecord[], now: number): Promise<{ added: number; updated: number }>;
  searchBusinesses(q: BusinessQuery): Promise<BusinessPage>;
  /** After a bulk load (an import): refresh the planner's statistics so counts pick their index. */
  optimize(): Promise<void>;
}
