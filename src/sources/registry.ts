/**
 * The single table endpoint → source adapter. Adapters load on first use (their data costs start-up
 * time). An endpoint missing here answers 501: nothing pretends to have data. Tests build their own
 * registry with a test-only adapter; it is never served.
 *
 * @example await defaultRegistry().load('/maps/search') // the map search adapter
 */
import type { SourceAdapter } from './_kit/adapter.ts';
import type { AdapterRegistry } from '../app/context.ts';

type Loader = () => Promise<SourceAdapter>;

export const ADAPTER_LOADERS: Record<string, Loader> = {
  '/maps/search': async () => (await import('./maps-search/index.ts')).mapsSearchAdapter,
  '/maps/reviews': async () => (await import('./maps-reviews/index.ts')).mapsReviews,
  '/engine-places-by-domain': async () => (await import('./places-by-domain/index.ts')).placesByDomain,
  '/engine-search-events': async () => (await import('./search-events/index.ts')).searchEvents,
  '/engine-search-careers': async () => (await import('./search-careers/index.ts')).searchCareers,
  '/engine-maps-autocomplete': async () => (await import('./maps-autocomplete/index.ts')).mapsAutocomplete,
  '/hotels-search': async () => (await import('./hotels-search/index.ts')).adapter,
  '/reverse-geocoding': async () => (await import('../lookups/geo/index.ts')).reverseGeocodingAdapter,
  '/directory-phones': async () => (await import('../lookups/phones/index.ts')).directoryPhonesAdapter,
  '/email-validator': async () => (await import('../lookups/email/index.ts')).emailValidatorAdapter,
  '/emails-finder': async () => (await import('../lookups/email/index.ts')).emailsFinderAdapter,
};

export function registryOf(loaders: Record<string, Loader>): AdapterRegistry {
  const cache = new Map<string, Promise<SourceAdapter>>();
  return {
    load(endpoint) {
      const l = loaders[endpoint];
      if (!l) return Promise.resolve(undefined);
      let p = cache.get(endpoint);
      if (!p) {
        p = l();
        cache.set(endpoint, p);
        p.catch(() => cache.delete(endpoint));
      }
      return p;
    },
  };
}

/** A registry of ready adapter objects (tests). */
export function registryOfAdapters(adapters: SourceAdapter[]): AdapterRegistry {
  return registryOf(Object.fromEntries(adapters.map((a) => [a.endpoint, async () => a])));
}

export function defaultRegistry(): AdapterRegistry {
  return registryOf(ADAPTER_LOADERS);
}
