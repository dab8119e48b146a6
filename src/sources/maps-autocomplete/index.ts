/**
 * `/engine-maps-autocomplete` adapter (unit `suggestion`).
 *
 * @example
 *   const [step] = mapsAutocomplete.plan({ query: 'pizza ne', params: { coordinates: '@40.7,-74,12z' } });
 *   mapsAutocomplete.parse(step, response, ctx).records; // [{ suggestion, type, name, address, engine_id, ... }]
 */
import type { WebAdapter } from '../_kit/adapter.ts';
import { parse, suggestionsOf } from './parse.ts';
import { plan } from './plan.ts';
import type { AutocompleteParams, SuggestionRecord } from './record.ts';

export const mapsAutocomplete: WebAdapter<AutocompleteParams, SuggestionRecord> = {
  kind: 'web',
  endpoint: '/engine-maps-autocomplete',
  unit: 'suggestion',
  checkQuery: (q) => (q.trim() ? undefined : 'query is empty: give the text typed so far'),
  plan,
  parse,
};

/**
 * Parses a saved suggest answer (for `trawl parse /engine-maps-autocomplete <file>`).
 * Throws an Error for anything else.
 * @example parseCapture(readFileSync('suggest.txt', 'utf8'), 'pizza')
 */
export function parseCapture(text: string, query = ''): SuggestionRecord[] {
  const out = suggestionsOf(text, query);
  if (out === null) throw new Error('maps-autocomplete: expected a suggest answer ()]}\' + [[query, rows]] or the {"d": ...} envelope)');
  return out;
}

export type { AutocompleteParams, SuggestionRecord };
