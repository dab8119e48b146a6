/**
 * `trawl parse /engine-maps-autocomplete <file>`: a saved response of this source → records.
 */
import { suggestionsOf } from './parse.ts';
import type { SuggestionRecord } from './record.ts';

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
