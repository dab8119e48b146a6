/**
 * What a request's enrichments cost: the prices fixed at submit, billed per place with the query's
 * completion. The names this deployment computes are in src/contract/enrichments.ts.
 */
import type { ExtraProduct } from '../store/contract.ts';
import { toMicros } from '../billing/money.ts';

/** Whether a request's parameters ask for any enrichment (`enrichment`, a non-empty list). */
export function asksEnrichment(params: Record<string, unknown>): boolean {
  return Array.isArray(params.enrichment) && params.enrichment.length > 0;
}

/** Stored-parameter key of the prices fixed at submit, in micros, one per enrichment asked (see enrichmentProducts). */
export const ENRICHMENT_PRICES = '_enrichmentPriceMicros';
/** The key requests stored before money was kept in micros used, with prices in the currency unit. */
const ENRICHMENT_PRICES_BEFORE_MICROS = '_enrichmentPrices';

/** Products an item of this request bills per place besides its own (src/store/contract.ts extraProducts). */
export function enrichmentProducts(params: Record<string, unknown>): ExtraProduct[] {
  const micros = params[ENRICHMENT_PRICES];
  const old = params[ENRICHMENT_PRICES_BEFORE_MICROS];
  const [prices, scale] = micros && typeof micros === 'object' ? [micros, (m: number) => m] : [old, toMicros];
  if (!prices || typeof prices !== 'object') return [];
  return Object.entries(prices as Record<string, unknown>)
    .filter((e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1]))
    .map(([product, price]) => ({ product, unit: 'place', unitPriceMicros: scale(price) }));
}
