/**
 * `/directory-phones`: the registry row (phone metadata loads on first use).
 */
import { defineSource } from '../../sources/_kit/source.ts';

export const source = defineSource({
  endpoint: '/directory-phones',
  adapter: async () => (await import('./adapter.ts')).directoryPhonesAdapter,
  verifiedBy: 'shipped data',
});
