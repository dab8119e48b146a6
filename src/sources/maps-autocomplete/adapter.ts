/**
 * `/engine-maps-autocomplete` adapter (unit `suggestion`).
 *
 * @example
 *   const [step] = adapter.plan({ query: 'pizza ne', params: { coordinates: ['@40.7,-74,12z'] } });
 *   adapter.parse(step, response, ctx).records; // [{ suggestion, type, name, address, engine_id, ... }]
 */
import type { WebAdapter } from '../_kit/adapter.ts';
import { parse } from './parse.ts';
import { plan } from './plan.ts';
import type { AutocompleteParams, SuggestionRecord } from './record.ts';

export const adapter: WebAdapter<AutocompleteParams, SuggestionRecord> = {
  kind: 'web',
  endpoint: '/engine-maps-autocomplete',
  checkQuery: (q) => (q.trim() ? undefined : 'query is empty: give the text typed so far'),
  plan,
  parse,
};
