/**
 * `/reverse-geocoding`: the registry row (the geocoder's shipped data loads on first use).
 */
import { defineSource } from '../../sources/_kit/source.ts';

export const source = defineSource({
  endpoint: '/reverse-geocoding',
  adapter: async () => (await import('./adapter.ts')).reverseGeocodingAdapter,
  verifiedBy: 'shipped data',
});
