/**
 * Types of `/hotels-search`: the record type derives from its declared schema.
 */
import type { Static } from '@sinclair/typebox';
import type { hotelsSearchRecord } from '../../contract/records/hotels-search.ts';
import type { ParamsOf } from '../../contract/endpoint.ts';
import type { hotelsSearch } from '../../contract/endpoints/listings.ts';

export type HotelRecord = Static<typeof hotelsSearchRecord>;

export type HotelsSearchParams = ParamsOf<typeof hotelsSearch>;
