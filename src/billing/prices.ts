/**
 * Default price table (decision 18): price per unit of each product, in micros of the account's
 * currency (src/billing/money.ts: 3_000 = 0.003). Operators override per product or per account with
 * `trawl prices set`.
 */
import type { Micros } from './money.ts';

export const DEFAULT_UNIT_PRICES: Record<string, Micros> = {
  place: 3_000, review: 2_000, comment: 2_000, post: 3_000, video: 2_000, listing: 3_000, hotel: 3_000, property: 3_000,
  price: 3_000, email: 3_000, phone: 2_000, location: 1_000, business: 2_000, suggestion: 1_000, event: 2_000, job: 2_000,
};

/** Default price per place of each map-place enrichment, billed as its own product (docs/enrichments.md). */
export const DEFAULT_ENRICHMENT_PRICES: Record<string, Micros> = {
  contacts_n_leads: 2_000, emails_validator_service: 1_000, company_websites_finder: 2_000, disposable_email_checker: 500,
  company_insights_service: 1_000, phones_enricher_service: 500, reviewsite_service: 1_000, directory_phones: 500, ai_chain_info: 500,
};

export function defaultUnitPriceMicros(unit: string): Micros {
  return DEFAULT_UNIT_PRICES[unit] ?? 2_000;
}
