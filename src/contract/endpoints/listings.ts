/** Listing, price and video endpoints (interface 4.4). */
import { defineEndpoint, type DataEndpoint } from '../endpoint.ts';
import { bool, int, oneOf, str } from '../dsl.ts';
import { FULL_SET } from '../shared.ts';
import { hotelsSearchRecord } from '../records/hotels-search.ts';
import { videositeVideoRecord } from '../records/videosite-videos.ts';
import { realestateSearchRecord } from '../records/realestate-search.ts';
import { lodgingPricesRecord } from '../records/lodging-prices.ts';
import { deliveryRecord } from '../records/delivery.ts';

const limit = int({ min: 1, max: 100_000, def: 100, doc: 'Items per query.' });

export const hotelsSearch = defineEndpoint({
  path: '/hotels-search', family: 'listings', summary: 'Hotels from hotel-search result pages.', queryDoc: 'Hotel-search result page links.',
  params: { limit, cursor: str({ doc: 'The next_page_cursor of the last record received: continues right after its chunk.' }) }, shared: FULL_SET, record: hotelsSearchRecord, unit: 'hotel', service: 'hotels_search_service',
});

export const realestateSearch = defineEndpoint({
  path: '/realestate-search', family: 'listings', summary: 'Property listings.', queryDoc: 'Location text or search links.',
  params: { mainFilter: oneOf(['for_sale', 'for_rent', 'sold'] as const, { def: 'for_sale' }), limit, skip: int({ min: 0, max: 100_000, def: 0 }) },
  shared: FULL_SET, record: realestateSearchRecord, unit: 'property', service: 'realestate_search_service',
});

export const lodgingPrices = defineEndpoint({
  path: '/lodging-prices', family: 'listings', summary: 'Hotel prices.', queryDoc: 'Hotel links or ids.',
  params: {}, shared: FULL_SET, record: lodgingPricesRecord, unit: 'price', service: 'lodging_prices_service',
});

export const delivery = defineEndpoint({
  path: '/delivery', family: 'listings', summary: 'Food-delivery menu items.', queryDoc: 'Store or menu-item URLs, or store ids.',
  params: {}, shared: FULL_SET, record: deliveryRecord, unit: 'listing', service: 'delivery_service',
});

export const videositeVideos = defineEndpoint({
  path: '/videosite-videos', family: 'listings', summary: 'Videos of channels.', queryDoc: 'Channel handles or URLs.',
  params: {
    shorts: bool({ doc: 'true: only short videos; false: only regular ones.' }), limit,
    cursor: str({ maxLength: 16_384, doc: 'Extension (not in the interface): next_page_cursor of a record; resumes right after it. Long: it carries the site\'s continuation token (4-9 KB).' }),
  }, required: ['shorts'],
  shared: FULL_SET, record: videositeVideoRecord, unit: 'video', service: 'videosite_videos_service', answers204: true,
});

export const listingEndpoints: DataEndpoint[] = [hotelsSearch, realestateSearch, lodgingPrices, delivery, videositeVideos];
