/** Maps and search-engine endpoints (interface 4.2, decision 24 for /maps/reviews). */
import { searchesAreas } from '../query-area.ts';
import { defineEndpoint, type DataEndpoint } from '../endpoint.ts';
import { bool, int, list, oneOf, str } from '../dsl.ts';
import { FULL_SET, language, region } from '../shared.ts';
import { LANGUAGES, MAPS_ENRICHMENTS } from '../enums.ts';
import { SUPPORTED_ENRICHMENTS, unsupportedEnrichments } from '../enrichments.ts';
import { geocodingRecord, mapsReviewsRecord, placeRecord, reverseGeocodingRecord } from '../records.ts';
import { eventRecord } from '../records/engine-search-events.ts';
import { jobRecord } from '../records/engine-search-careers.ts';
import { suggestionRecord } from '../records/engine-maps-autocomplete.ts';

const COORDINATES = '^@-?\\d+(\\.\\d+)?,-?\\d+(\\.\\d+)?,\\d+(\\.\\d+)?z$';

export const mapsSearch = defineEndpoint({
  path: '/maps/search', aliases: ['/maps/search-v2', '/maps/search-v3'], family: 'maps', summary: 'Places for search phrases, place ids, CIDs, engine ids or map URLs.',
  queryDoc: 'A phrase usable on a map site (location inside the phrase is recommended), an engine_id, a place_id, a CID, or a map URL.',
  params: {
    limit: int({ min: 1, max: 1_000_000, def: 500, doc: 'Places per query; the source holds at most 500 per query. With `area` (extension), the places of the area to find, up to 1,000,000 (default 500 there too, so a whole area is never billed by surprise). Also read as `organizationsPerQueryLimit`.' }),
    area: str({ maxLength: 1_000_000, example: 'US>Nevada', doc: 'Extension (not in the interface): searches the phrase over a whole area instead of one view: a location value of GET /locations (country, `CC>Region`, `CC>Region>City`, `US>State>X County`), a US ZIP (`89101`), a box `west,south,east,north`, or a GeoJSON Polygon/MultiPolygon. The area is covered view by view (no 500 cap); only places inside it are kept; the result\'s `areas` field says how complete the search believes it is. An unknown location, a self-crossing polygon, a box over 180° or a shape over 1 MB is a 422.' }),
    skip: int({ min: 0, max: 499, doc: 'Extension (not in the interface): leaves out the first places of each query (paging across requests). Also read as `skipPlaces`.' }),
    dropDuplicates: bool({ def: false, doc: 'Drops equal organizations across queries; data becomes one flat array. Dropped rows are free unless they exceed 50 times the kept ones.' }),
    totalLimit: int({ min: 1, max: 500_000, doc: 'Total places across all queries.' }),
    coordinates: str({ pattern: COORDINATES, example: '@40.7128,-74.0060,13z', doc: 'Map viewport `@<latitude>,<longitude>,<zoom>z`.' }),
    language, region,
    enrichment: list(oneOf(MAPS_ENRICHMENTS), { doc: 'Enrichments applied to results; raises response time (async advised). `leads_n_contacts` = `contacts_n_leads`.' }),
  },
  paramAliases: { organizationsPerQueryLimit: 'limit', skipPlaces: 'skip' },
  shared: FULL_SET, record: placeRecord, unit: 'place', service: 'engine_maps_service_v2', emptyCostsOne: true,
  check: (p) => {
    const missing = unsupportedEnrichments(p.enrichment);
    if (missing.length) return `enrichment ${missing.join(', ')} is not available in this deployment yet; available: ${SUPPORTED_ENRICHMENTS.join(', ')}`;
    // Whether the area itself resolves needs the geo data: submit checks it (src/app/submit.ts).
    if (typeof p.area === 'string') return undefined;
    if (typeof p.limit === 'number' && p.limit > 500 && !searchesAreas(p)) return `limit is ${p.limit}; a query holds at most 500 places unless it has an area`;
    return undefined;
  },
});

export const mapsReviews = defineEndpoint({
  path: '/maps/reviews', aliases: ['/maps/reviews-v3'], family: 'maps', summary: 'Reviews of places, one element per place with reviews_data[].',
  queryDoc: 'A place_id, engine_id, CID, map place URL, or a search phrase.',
  params: {
    reviewsLimit: int({ min: 0, max: 100_000, def: 100, doc: 'Reviews per place; 0 = all.' }),
    limit: int({ min: 1, max: 500, def: 1, doc: 'Places per query.' }),
    sort: oneOf(['most_relevant', 'newest', 'highest_rating', 'lowest_rating'] as const, { def: 'most_relevant' }),
    cutoff: int({ min: 0, zeroIsAbsent: true, doc: 'Oldest review timestamp (Unix seconds); forces sort=newest.' }),
    cutoffRating: int({ min: 1, max: 5, zeroIsAbsent: true, doc: 'With highest_rating: lowest rating kept; with lowest_rating: highest rating kept.' }),
    ignoreEmpty: bool({ def: false, doc: 'Drops reviews without text.' }),
    lastPaginationId: str({ doc: 'review_pagination_id of the last review received: continues after it.' }),
    reviewsRoute: oneOf(['auto', 'map', 'dialog'] as const, { def: 'auto', doc: 'Extension: where reviews are read. `map`: the map product\'s review list (whole for a signed-in identity the operator configured; signed out since 2026 a limited view, ending with limited_view); `dialog`: the search results page\'s review dialog (10 a page, signed out; no owner answers, likes, photos or translations); `auto`: the map list, moving a place to the dialog when the list shows the limited view.' }),
    language, region,
  },
  shared: FULL_SET, record: mapsReviewsRecord, unit: 'review', service: 'engine_maps_reviews_service_v3', emptyCostsOne: true,
  check: (p) => p.cutoffRating !== undefined && p.sort !== 'highest_rating' && p.sort !== 'lowest_rating'
    ? `cutoffRating needs sort highest_rating or lowest_rating, got sort "${String(p.sort)}"` : undefined,
});

export const placesByDomain = defineEndpoint({
  path: '/engine-places-by-domain', family: 'maps', summary: 'Places by domains or websites.',
  queryDoc: 'A domain or website URL.',
  params: {
    perQuery: int({ min: 1, max: 500, def: 100, doc: 'Items per query. Also read as `limit` or `limit_per_query`.' }), region,
    language: oneOf(LANGUAGES, { def: 'en', doc: 'Extension (not in the interface): language of the map search the places are found with.' }),
  },
  paramAliases: { limit: 'perQuery', limit_per_query: 'perQuery', organizationsPerQueryLimit: 'perQuery' },
  shared: FULL_SET, record: placeRecord, unit: 'place', service: 'engine_places_by_domain_service', emptyCostsOne: true, answers204: true,
});

export const searchEvents = defineEndpoint({
  path: '/engine-search-events', family: 'maps', summary: 'Search-engine event results.', queryDoc: 'A search phrase.',
  params: { pagesPerQuery: int({ min: 1, max: 10, def: 1 }), uule: str({ doc: 'Encoded location.' }), language, region },
  shared: FULL_SET, record: eventRecord, unit: 'event', service: 'engine_search_events_service', answers204: true,
});

export const searchCareers = defineEndpoint({
  path: '/engine-search-careers', family: 'maps', summary: 'Career (job) search results.', queryDoc: 'A search phrase.',
  params: { pagesPerQuery: int({ min: 1, max: 10, def: 1 }), language, region },
  shared: FULL_SET, record: jobRecord, unit: 'job', service: 'engine_search_careers_service', answers204: true,
});

export const mapsAutocomplete = defineEndpoint({
  path: '/engine-maps-autocomplete', family: 'maps', summary: 'Map search suggestions.', queryDoc: 'A partial search phrase.',
  params: {
    coordinates: list(str({ pattern: COORDINATES }), { def: ['@23.4933124,53.9623381,11.42z'], doc: 'Biases results.' }),
    language, region,
  },
  shared: [], record: suggestionRecord, unit: 'suggestion', service: 'engine_maps_autocomplete_service',
});

export const reverseGeocoding = defineEndpoint({
  path: '/reverse-geocoding', family: 'lookups', summary: 'Address facts for coordinates.',
  queryDoc: '`<latitude> <longitude>` or `<latitude>,<longitude>`.',
  params: {}, shared: [], record: reverseGeocodingRecord, unit: 'location', service: 'reverse_geocoding_service',
});

export const geocoding = defineEndpoint({
  path: '/geocoding', family: 'lookups', summary: 'Coordinates for addresses and place names.',
  queryDoc: 'An address or place, e.g. `Palo Alto, CA` or `321 California Ave, Palo Alto, CA 94306`. Offline the city it names is found (`match: city`); with the operator\'s geocoder (GEOCODER_URL) the address itself.',
  params: {}, shared: [], record: geocodingRecord, unit: 'location', service: 'geocoding_service',
});

export const mapsEndpoints: DataEndpoint[] = [mapsSearch, mapsReviews, placesByDomain, searchEvents, searchCareers, mapsAutocomplete, reverseGeocoding, geocoding];
