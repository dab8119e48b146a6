/**
 * Default price table (decision 18): price per unit of each product, in the account's currency.
 * Operators override per product or per account with `trawl prices set`.
 */
export const DEFAULT_UNIT_PRICES: Record<string, number> = {
  place: 0.003, review: 0.002, comment: 0.002, post: 0.003, video: 0.002, listing: 0.003, hotel: 0.003, property: 0.003,
  price: 0.003, email: 0.003, phone: 0.002, location: 0.001, business: 0.002, suggestion: 0.001, event: 0.002, job: 0.002,
};

/** Default price per place of each map-place enrichment, billed as its own product (docs/enrichments.md). */
export const DEFAULT_ENRICHMENT_PRICES: Record<string, number> = {
  contacts_n_leads: 0.002, emails_validator_service: 0.001, company_websites_finder: 0.002, disposable_email_checker: 0.0005,
  company_insights_service: 0.001, phones_enricher_service: 0.0005, reviewsite_service: 0.001, directory_phones: 0.0005, ai_chain_info: 0.0005,
};

export function defaultUnitPrice(unit: string): number {
  return DEFAULT_UNIT_PRICES[unit] ?? 0.002;
}
