/**
 * Types of `/realestate-search`: the record type derives from its declared schema.
 */
import type { Static } from '@sinclair/typebox';
import type { realestateSearchRecord } from '../../contract/records/realestate-search.ts';

export type EstateRecord = Static<typeof realestateSearchRecord>;

export type MainFilter = 'for_sale' | 'for_rent' | 'sold';

/** The declared parameters (src/contract/endpoints/listings.ts), validated with defaults. */
export interface EstateParams {
  mainFilter?: MainFilter;
  limit?: number;
  skip?: number;
}
