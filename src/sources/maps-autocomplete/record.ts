/**
 * Records of `/engine-maps-autocomplete` (unit `suggestion`).
 */
export interface AutocompleteParams {
  /** `@lat,lng,zoomz` biasing the suggestions; an array takes its first item (see plan.ts). */
  coordinates?: string | string[];
  language?: string;
  region?: string;
}

export interface SuggestionRecord {
  query: string;
  /** The suggestion as the box shows it. */
  suggestion: string;
  /** `place` when it names a located place, `query` for a search text. */
  type: 'place' | 'query';
  name: string | null;
  address: string | null;
  engine_id: string | null;
  place_id: string | null;
  cid: string | null;
  latitude: number | null;
  longitude: number | null;
}

export const DEFAULT_COORDINATES = '@23.4933124,53.9623381,11.42z';
