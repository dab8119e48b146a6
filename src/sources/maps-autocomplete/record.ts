/**
 * Records of `/engine-maps-autocomplete` (unit `suggestion`).
 */
export interface AutocompleteParams {
  /** `@lat,lng,zoomz` biasing the suggestions; an array takes its first item (see plan.ts). */
  coordinates?: string | string[];
  language?: string;
  region?: string;
}

export type { SuggestionRecord } from '../../contract/records/engine-maps-autocomplete.ts';

export const DEFAULT_COORDINATES = '@23.4933124,53.9623381,11.42z';
