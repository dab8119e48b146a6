/**
 * `/maps/search` parameters (interface 4.2) as the adapter sees them, with the defaults applied.
 * `dropDuplicates`, `totalLimit` and `enrichment` act across queries (engine and enrichment layers);
 * they are typed here so one object travels with the query, and ignored by plan/parse.
 */
import { SourceError } from '../_kit/errors.ts';
import { parseCamera, type Camera } from './query.ts';

export interface MapsSearchParams {
  limit?: number;
  coordinates?: string;
  language?: string;
  region?: string;
  dropDuplicates?: boolean;
  totalLimit?: number;
  enrichment?: string[];
}

export interface SearchSettings {
  limit: number;
  camera: Camera | null;
  language: string;
  region: string | null;
}

export const MAX_LIMIT = 500;

/**
 * @example
 *   searchSettings({ limit: 50, coordinates: '@38,23.7,13z' })
 *   // { limit: 50, camera: { lat: 38, lng: 23.7, zoom: 13 }, language: 'en', region: null }
 */
export function searchSettings(p: MapsSearchParams | undefined): SearchSettings {
  const params = p ?? {};
  const limit = params.limit ?? MAX_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new SourceError('invalid_query', `limit must be an integer from 1 to ${MAX_LIMIT}, got ${JSON.stringify(limit)}`);
  }
  let camera: Camera | null = null;
  if (params.coordinates !== undefined && params.coordinates !== '') {
    camera = parseCamera(params.coordinates);
    if (!camera) throw new SourceError('invalid_query', `coordinates must look like @<latitude>,<longitude>,<zoom>z, got ${JSON.stringify(params.coordinates)}`);
  }
  return {
    limit,
    camera,
    language: params.language || 'en',
    region: params.region ? params.region.toUpperCase() : null,
  };
}
