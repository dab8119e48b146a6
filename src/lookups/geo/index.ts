/**
 * Offline geo lookups: `/reverse-geocoding` (adapter) and `/locations`.
 *
 * @example
 *   import { reverseGeocodingAdapter, locationsFor } from './lookups/geo/index.ts';
 */
export { reverseGeocodingAdapter, reverseGeocode } from './adapter.ts';
export { checkCoordinates, parseCoordinates, type LatLng } from './coordinates.ts';
export { loadReverseGeocoder, createReverseGeocoder, type ReverseGeocoder } from './reverse.ts';
export { composeAddress, type ReverseGeocodingRecord } from './record.ts';
export {
  locationsFor,
  isKnownCountry,
  UnknownCountryError,
  isUnknownCountryError,
  type LocationItem,
  type LocationsResult,
} from './locations.ts';
export { geocoderSettings, GeocoderSettingsError, type GeocoderSettings, type EngineKind } from './engine/settings.ts';
export { engineReverse } from './engine/client.ts';
