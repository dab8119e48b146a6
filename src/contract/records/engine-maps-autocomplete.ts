/**
 * `/engine-maps-autocomplete` records (decision 24): one suggestion of the map search box.
 */
import type { Static } from '@sinclair/typebox';
import { Type } from '../dsl.ts';
import { nnum, nstr, record, str } from './fields.ts';

export const suggestionRecord = record('EngineMapsAutocompleteRecord', 'A map search suggestion.', {
  query: str('The query item as given (the text typed so far).'),
  suggestion: str('The suggestion as the box shows it.'),
  type: Type.Union([Type.Literal('place'), Type.Literal('query')], { description: '`place` when it names a located place, `query` for a search text.' }),
  name: nstr('Place name (place suggestions).'),
  address: nstr('Place address (place suggestions).'),
  engine_id: nstr('Map feature id (two hexadecimal parts joined by a colon).'),
  place_id: nstr('Place id.'),
  cid: nstr('Map CID (decimal).'),
  latitude: nnum('Latitude, degrees.'),
  longitude: nnum('Longitude, degrees.'),
});

export type SuggestionRecord = Static<typeof suggestionRecord>;
