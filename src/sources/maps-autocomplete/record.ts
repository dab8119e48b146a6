/**
 * Types of `/engine-maps-autocomplete` (unit `suggestion`), derived from its declaration.
 */
import type { ParamsOf } from '../../contract/endpoint.ts';
import type { mapsAutocomplete } from '../../contract/endpoints/maps.ts';

/** `coordinates`: `@lat,lng,zoomz` values biasing the suggestions; the first one is used (see plan.ts). */
export type AutocompleteParams = ParamsOf<typeof mapsAutocomplete>;

export type { SuggestionRecord } from '../../contract/records/engine-maps-autocomplete.ts';

export const DEFAULT_COORDINATES = '@23.4933124,53.9623381,11.42z';
