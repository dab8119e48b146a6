/**
 * `/maps/search` parameters (interface 4.2) as the adapter sees them, with the defaults applied.
 * `dropDuplicates`, `totalLimit` and `enrichment` act across queries (engine and enrichment layers);
 * they are typed here so one object travels with the query, and ignored by plan/parse.
 */
import type { ParamsOf } from '../../contract/endpoint.ts';
import type { mapsSearch } from '../../contract/endpoints/maps.ts';
import { SourceError } from '../_kit/errors.ts';
import { parseCamera, type Camera } from './query.ts';

/** `skip`: places of each query left out at the start (alias `skipPlaces`). */
export type MapsSearchParams = ParamsOf<typeof mapsSearch>;

export interface SearchSettings {
  /** Places to find: the query's limit plus the skipped ones, at most MAX_LIMIT. */
  limit: number;
  /** Places left out at the start of the merged list (finish). */
  skip: number;
  camera: Camera | null;
  language: string;
  region: string | null;
}

export const MAX_LIMIT = 500;

/**
 * @example
 *   searchSettings({ limit: 50, coordinates: '@38,23.7,13z' })
 *   // { limit: 50, skip: 0, camera: { lat: 38, lng: 23.7, zoom: 13 }, language: 'en', region: null }
 */
export function searchSettings(p: MapsSearchParams | undefined): SearchSettings {
  const params = p ?? {};
  // An area's limit bounds the places of the area (cover.ts); the view search keeps its own cap.
  const limit = params.area ? MAX_LIMIT : params.limit ?? MAX_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new SourceError('invalid_query', `limit must be an integer from 1 to ${MAX_LIMIT}, got ${JSON.stringify(limit)}`);
  }
  const skip = params.skip ?? 0;
  if (!Number.isInteger(skip) || skip < 0 || skip >= MAX_LIMIT) {
    throw new SourceError('invalid_query', `skip must be an integer from 0 to ${MAX_LIMIT - 1}, got ${JSON.stringify(skip)}`);
  }
  let camera: Camera | null = null;
  if (params.coordinates !== undefined && params.coordinates !== '') {
    camera = parseCamera(params.coordinates);
    if (!camera) throw new SourceError('invalid_query', `coordinates must look like @<latitude>,<longitude>,<zoom>z, got ${JSON.stringify(params.coordinates)}`);
  }
  return {
    limit: Math.min(MAX_LIMIT, limit + skip),
    skip,
    camera,
    language: params.language || 'en',
    region: params.region ? params.region.toUpperCase() : null,
  };
}
