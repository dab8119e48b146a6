/**
 * `/directory-phones`: the registry row (phone metadata loads on first use).
 */
import { defineSource } from '../../sources/_kit/source.ts';
import { onLookupThread } from '../threaded.ts';
import { checkPhoneQuery } from './check.ts';

export const source = defineSource({
  endpoint: '/directory-phones',
  // On the lookup thread: importing the phone metadata takes 0.3-0.6 s of CPU (issue 15).
  adapter: async () => onLookupThread({ kind: 'local', endpoint: '/directory-phones', checkQuery: checkPhoneQuery }, new URL('./adapter.ts', import.meta.url), 'directoryPhonesAdapter'),
  verifiedBy: 'shipped data',
});
