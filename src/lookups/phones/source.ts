/**
 * `/directory-phones`: the registry row (phone metadata loads on first use).
 */
import { defineSource } from '../../sources/_kit/source.ts';
import { onLookupThread } from '../threaded.ts';

/** Unreadable numbers still get a record (status NOT_A_NUMBER); only an empty query is refused. */
export const checkPhoneQuery = (query: string): string | undefined => (query.trim() === '' ? 'query is empty: expected a phone number' : undefined);

export const source = defineSource({
  endpoint: '/directory-phones',
  // On the lookup thread: importing the phone metadata takes 0.3-0.6 s of CPU (issue 15).
  adapter: async () => onLookupThread({ kind: 'local', endpoint: '/directory-phones', checkQuery: checkPhoneQuery }, new URL('./adapter.ts', import.meta.url), 'directoryPhonesAdapter'),
  verifiedBy: 'shipped data',
});
