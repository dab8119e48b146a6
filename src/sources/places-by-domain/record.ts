/**
 * Records of `/engine-places-by-domain`: place records (interface 2.3) whose website belongs to
 * the queried domain. A query that finds none yields one `{query, no_result: true}` marker, billed
 * as one place (decision 20).
 */
import type { ParamsOf } from '../../contract/endpoint.ts';
import type { placesByDomain } from '../../contract/endpoints/maps.ts';

/** `perQuery`: places per query (default 100). */
export type PlacesByDomainParams = ParamsOf<typeof placesByDomain>;

export type { PlaceRecord } from '../_maps/record.ts';
export { isNoResult, type NoResult } from '../_kit/adapter.ts';

export const DEFAULT_PER_QUERY = 100;
