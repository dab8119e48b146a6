/**
 * Records of `/engine-places-by-domain`: place records (interface 2.3) whose website belongs to
 * the queried domain. A query that finds none yields one `{query, no_result: true}` marker, billed
 * as one place (decision 20).
 */
import type { ParamsOf } from '../../contract/endpoint.ts';
import type { placesByDomain } from '../../contract/endpoints/maps.ts';

/** `perQuery`: places per query (default 100). */
export type PlacesByDomainParams = ParamsOf<typeof placesByDomain>;

/** The least a place record must carry for the domain filter and deduplication. */
export interface SiteRecord {
  query?: string | null;
  site: string | null;
  place_id?: string | null;
  engine_id?: string | null;
  name?: string | null;
  [k: string]: unknown;
}

export { isNoResult, type NoResult } from '../_kit/adapter.ts';

export const DEFAULT_PER_QUERY = 100;
