/**
 * Names of the map-place enrichments this deployment can compute (src/enrich/index.ts has one
 * enricher per name). Kept apart from the implementations so declaring the contract does not load
 * phone and e-mail data.
 *
 * @example unsupportedEnrichments(['phones_enricher_service', 'reviewsite_service']) // ['reviewsite_service']
 */
export const SUPPORTED_ENRICHMENTS = ['phones_enricher_service', 'directory_phones', 'disposable_email_checker', 'emails_validator_service',
  'ai_chain_info', 'contacts_n_leads', 'company_insights_service', 'reviewsite_service',
  'company_websites_finder'] as const;

/** src/enrich/index.ts has exactly one enricher per name (checked by the type checker). */
export type SupportedEnrichment = (typeof SUPPORTED_ENRICHMENTS)[number];

export function unsupportedEnrichments(asked: unknown): string[] {
  return Array.isArray(asked) ? asked.filter((e) => !(SUPPORTED_ENRICHMENTS as readonly string[]).includes(e)) : [];
}
