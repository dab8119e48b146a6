/**
 * The enrichments computed from shipped data and the place alone (phone metadata and carriers, the
 * disposable-domain lists, the brand index) plus the e-mail validator, whose lists load the same way.
 * Their first use loads that data synchronously (the brand index: 2-3 s), so they run on the lookup
 * thread (issue 15; ../lookups/threaded.ts), one call per enrichment over a batch of places, and
 * answer only the fields they add.
 *
 * @example await offlineFields({ name: 'ai_chain_info', records: [{ name: 'Starbucks', category: 'Coffee shop', country_code: 'US' }], settings: {} })
 *   // [{ is_chain: true, chain_name: 'Starbucks', chain_wikidata: 'Q37158' }]
 */
import { enrichPhone, phoneRecord } from '../lookups/phones/index.ts';
import { isDisposableEmail, validateEmail } from '../lookups/email/index.ts';
import { brandIndex } from './chain/brands.ts';
import { matchChain } from './chain/match.ts';

type Rec = Record<string, unknown>;
type Offline = (r: Rec, settings: Record<string, unknown>) => Promise<Rec> | Rec;

/** E-mail fields of a record: `email`, `email_1`, `email_2`, ... */
const emailFields = (r: Rec) => Object.keys(r).filter((k) => /^email(_\d+)?$/.test(k) && typeof r[k] === 'string' && r[k]);

const OFFLINE = {
  phones_enricher_service: (r) => {
    const e = enrichPhone(r.phone as string | null, r.country_code as string | null);
    return { phone_carrier_name: e.carrier_name, phone_carrier_type: e.carrier_type };
  },
  directory_phones: (r) => ({
    phone_info: typeof r.phone === 'string' && r.phone ? phoneRecord(r.phone, { region: r.country_code as string | null }) : null,
  }),
  disposable_email_checker: (r) => Object.fromEntries(emailFields(r).map((f) => [`${f}_disposable`, isDisposableEmail(r[f] as string)])),
  emails_validator_service: async (r, settings) => {
    const out: Rec = {};
    for (const f of emailFields(r)) {
      const v = await validateEmail(r[f] as string, settings);
      out[`${f}_status`] = v.status;
      out[`${f}_status_details`] = v.status_details;
    }
    return out;
  },
  ai_chain_info: (r) => ({ ...matchChain(brandIndex(), r) }),
} satisfies Record<string, Offline>;

export type OfflineEnrichment = keyof typeof OFFLINE;
export const isOffline = (name: string): name is OfflineEnrichment => Object.hasOwn(OFFLINE, name);

export interface OfflineBatch {
  name: OfflineEnrichment;
  records: Rec[];
  settings: Record<string, unknown>;
}

/** The fields `name` adds to each record, in order. */
export async function offlineFields(batch: OfflineBatch): Promise<Rec[]> {
  const fn: Offline = OFFLINE[batch.name];
  const out: Rec[] = [];
  for (const r of batch.records) out.push(await fn(r, batch.settings));
  return out;
}
