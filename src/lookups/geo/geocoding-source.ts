/**
 * `/geocoding` (forward): the registry row. On the lookup thread, like `/reverse-geocoding`: the
 * gazetteer and the reverse geocoder's data take seconds of CPU to load (issue 15).
 */
import { defineSource } from '../../sources/_kit/source.ts';
import { onLookupThread } from '../threaded.ts';

export const source = defineSource({
  endpoint: '/geocoding',
  // The text check only here: the gazetteer (in forward.ts) loads on the first lookup, on that thread.
  adapter: async () => onLookupThread({ kind: 'local', endpoint: '/geocoding', checkQuery: (await import('./forward.ts')).checkGeocodingQuery },
    new URL('./geocoding-adapter.ts', import.meta.url), 'geocodingAdapter'),
  verifiedBy: 'shipped data',
});
