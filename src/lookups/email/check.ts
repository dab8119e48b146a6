/**
 * The submit-time checks of the e-mail lookups, apart from the adapters (which load the probes and
 * lists): the API's thread runs these, the lookups run on the lookup thread (issue 15).
 *
 * @example checkFinderQuery('Jane example.com') // undefined
 */
import { parseFinderQuery } from './finder-query.ts';

/** A malformed address is an answer (INVALID_FORMAT), not a request error; only nothing is refused. */
export function checkValidatorQuery(query: string): string | undefined {
  return query.trim() === '' ? 'query is empty: expected an e-mail address' : undefined;
}

export function checkFinderQuery(query: string): string | undefined {
  const q = parseFinderQuery(query);
  return q.ok ? undefined : q.message;
}
