/**
 * Types of `/hotels-search`: the record type derives from its declared schema.
 */
import type { Static } from '@sinclair/typebox';
import type { hotelsSearchRecord } from '../../contract/records/hotels-search.ts';

export type HotelRecord = Static<typeof hotelsSearchRecord>;

/** The declared parameters (src/contract/endpoints/listings.ts), validated with defaults. */
export interface HotelsSearchParams {
  limit?: number;
  cursor?: string;
}
