/**
 * Types of `/realestate-search`: the record type derives from its declared schema.
 */
import type { Static } from '@sinclair/typebox';
import type { realestateSearchRecord } from '../../contract/records/realestate-search.ts';
import type { ParamsOf } from '../../contract/endpoint.ts';
import type { realestateSearch } from '../../contract/endpoints/listings.ts';

export type EstateRecord = Static<typeof realestateSearchRecord>;

export type EstateParams = ParamsOf<typeof realestateSearch>;
export type MainFilter = NonNullable<EstateParams['mainFilter']>;
