/**
 * Enrichments of map places (interface 4.2 `enrichment`): extra fields computed after a query's
 * records are extracted. Only those backed by real lookups exist; asking for another one is a 422
 * at submit time (see `unsupportedEnrichments`), never a silent no-op.
 *
 * @example
 *   await enrichRecords('/maps/search', places, { enrichment: ['phones_enricher_service'] }, {})
 *   // each place gains phone_carrier_name, phone_carrier_type
 */
import { enrichPhone, phoneRecord } from '../lookups/phones/index.ts';
import { isDisposableEmail, validateEmail } from '../lookups/email/index.ts';
import type { SupportedEnrichment } from './supported.ts';
import { brandIndex } from './chain/brands.ts';
import { matchChain } from './chain/match.ts';

type Rec = Record<string, unknown>;
type Enricher = (r: Rec, settings: Record<string, unknown>) => Promise<void> | void;

/** E-mail fields of a record: `email`, `email_1`, `email_2`, ... */
const emailFields = (r: Rec) => Object.keys(r).filter((k) => /^email(_\d+)?$/.test(k) && typeof r[k] === 'string' && r[k]);

const ENRICHERS: Record<SupportedEnrichment, Enricher> = {
  phones_enricher_service: (r) => {
    const e = enrichPhone(r.phone as string | null, r.country_code as string | null);
    r.phone_carrier_name = e.carrier_name;
    r.phone_carrier_type = e.carrier_type;
  },
  directory_phones: (r) => {
    r.phone_info = typeof r.phone === 'string' && r.phone ? phoneRecord(r.phone, { region: r.country_code as string | null }) : null;
  },
  disposable_email_checker: (r) => {
    for (const f of emailFields(r)) r[`${f}_disposable`] = isDisposableEmail(r[f] as string);
  },
  emails_validator_service: async (r, settings) => {
    for (const f of emailFields(r)) {
      const v = await validateEmail(r[f] as string, settings);
      r[`${f}_status`] = v.status;
      r[`${f}_status_details`] = v.status_details;
    }
  },
  ai_chain_info: (r) => {
    Object.assign(r, matchChain(brandIndex(), r));
  },
};

export async function enrichRecords(endpoint: string, records: Rec[], params: Rec, settings: Record<string, unknown>): Promise<Rec[]> {
  const asked = Array.isArray(params.enrichment) ? (params.enrichment as string[]) : [];
  if (!asked.length || endpoint !== '/maps/search') return records;
  for (const name of asked) {
    const fn = (ENRICHERS as Record<string, Enricher | undefined>)[name];
    if (!fn) continue;
    for (const r of records) await fn(r, settings);
  }
  return records;
}
