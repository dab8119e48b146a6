/**
 * `/reverse-geocoding`: the registry row (the geocoder's shipped data loads on first use).
 */
import { defineSource } from '../../sources/_kit/source.ts';
import { onLookupThread } from '../threaded.ts';

export const source = defineSource({
  endpoint: '/reverse-geocoding',
  // On the lookup thread: importing the adapter (polygons) and loading its data take seconds of CPU
  // (issue 15); this thread keeps the coordinate check only.
  adapter: async () => onLookupThread({ kind: 'local', endpoint: '/reverse-geocoding', checkQuery: (await import('./coordinates.ts')).checkCoordinates },
    new URL('./adapter.ts', import.meta.url), 'reverseGeocodingAdapter'),
  verifiedBy: 'shipped data',
});
