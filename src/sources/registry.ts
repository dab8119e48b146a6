/**
 * The only table of served endpoints: one import and one entry per source folder (each folder's
 * `index.ts` exports its row, see `_kit/source.ts`). An endpoint missing here answers 501: nothing
 * pretends to have data. The server, `trawl parse`, the docs page and OpenAPI read `SOURCES`; tests
 * build their own registry from their own rows (`registryOf`) or ready adapters (`registryOfAdapters`).
 *
 * @example await defaultRegistry().load('/maps/search') // the map search adapter
 */
import type { AdapterRegistry, SourceAdapter } from './_kit/adapter.ts';
import type { SourceRow } from './_kit/source.ts';
import { source as mapsSearch } from './maps-search/index.ts';
import { source as mapsReviews } from './maps-reviews/index.ts';
import { source as placesByDomain } from './places-by-domain/index.ts';
import { source as searchEvents } from './search-events/index.ts';
import { source as searchCareers } from './search-careers/index.ts';
import { source as mapsAutocomplete } from './maps-autocomplete/index.ts';
import { source as hotelsSearch } from './hotels-search/index.ts';
import { source as forumComments } from './forum-comments/index.ts';
import { source as videositeVideos } from './videosite-videos/index.ts';
import { source as bizdirReviews } from './bizdir-reviews/index.ts';
import { source as rentalsReviews } from './rentals-reviews/index.ts';
import { source as launchsiteReviews } from './launchsite-reviews/index.ts';
import { source as deliveryReviews } from './delivery-reviews/index.ts';
import { source as realestateSearch } from './realestate-search/index.ts';
import { source as shortvideoComments } from './shortvideo-comments/index.ts';
import { source as networkPosts } from './network-posts/index.ts';
import { source as lodgingPrices } from './lodging-prices/index.ts';
import { source as delivery } from './delivery/index.ts';
import { source as reverseGeocoding } from '../lookups/geo/source.ts';
import { source as geocoding } from '../lookups/geo/geocoding-source.ts';
import { source as directoryPhones } from '../lookups/phones/source.ts';
import { emailValidator, emailsFinder } from '../lookups/email/source.ts';

export const SOURCES: SourceRow[] = [
  mapsSearch,
  mapsReviews,
  placesByDomain,
  searchEvents,
  searchCareers,
  mapsAutocomplete,
  hotelsSearch,
  forumComments,
  videositeVideos,
  bizdirReviews,
  rentalsReviews,
  launchsiteReviews,
  deliveryReviews,
  realestateSearch,
  shortvideoComments,
  networkPosts,
  lodgingPrices,
  delivery,
  reverseGeocoding,
  geocoding,
  directoryPhones,
  emailValidator,
  emailsFinder,
];

/** A served registry: the adapters of `rows`, each loaded once on first use. */
export interface SourceRegistry extends AdapterRegistry {
  /** The rows, in table order. */
  rows: readonly SourceRow[];
  /** The row serving `endpoint`, if any. */
  row(endpoint: string): SourceRow | undefined;
  /** The served endpoint paths, in table order. */
  endpoints(): string[];
}

/**
 * A registry of these rows. Throws when two rows claim one endpoint.
 * @example registryOf([defineSource({ endpoint: '/t', adapter: async () => testAdapter, verifiedBy: 'constructed samples' })])
 */
export function registryOf(rows: readonly SourceRow[]): SourceRegistry {
  const byEndpoint = new Map<string, SourceRow>();
  for (const r of rows) {
    if (byEndpoint.has(r.endpoint)) throw new Error(`two sources serve ${r.endpoint}`);
    byEndpoint.set(r.endpoint, r);
  }
  const cache = new Map<string, Promise<SourceAdapter>>();
  return {
    rows,
    row: (endpoint) => byEndpoint.get(endpoint),
    endpoints: () => rows.map((r) => r.endpoint),
    load(endpoint) {
      const r = byEndpoint.get(endpoint);
      if (!r) return Promise.resolve(undefined);
      let p = cache.get(endpoint);
      if (!p) {
        p = r.adapter();
        cache.set(endpoint, p);
        p.catch(() => cache.delete(endpoint));
      }
      return p;
    },
  };
}

/** A registry of ready adapter objects (tests). */
export function registryOfAdapters(adapters: SourceAdapter[]): SourceRegistry {
  return registryOf(adapters.map((a) => ({ endpoint: a.endpoint, adapter: async () => a, verifiedBy: 'test adapter' })));
}

/** The table this deployment serves. */
export function defaultRegistry(): SourceRegistry {
  return registryOf(SOURCES);
}

/** The endpoint paths this deployment serves, in table order. */
export function servedEndpoints(): string[] {
  return SOURCES.map((r) => r.endpoint);
}
