/**
 * Types of `/lodging-prices`: the record type derives from its declared schema.
 */
import type { Static } from '@sinclair/typebox';
import type { lodgingPricesRecord } from '../../contract/records/lodging-prices.ts';

export type PriceRecord = Static<typeof lodgingPricesRecord>;

/** The stay a query asks prices for. */
export interface Stay {
  checkIn: string;
  checkOut: string;
  adults: number;
  children: number;
  rooms: number;
  /** True when the query named no dates (the documented default stay). */
  isDefault: boolean;
}
