/**
 * The maps enrichment `phones_enricher_service`: carrier fields for a place's phone.
 */
import { phoneRecord, type CarrierType } from './record.ts';

export interface PhoneEnrichment {
  carrier_name: string | null;
  carrier_type: CarrierType | null;
}

/**
 * Carrier name (original range holder) and carrier type of a phone, null fields when unknown.
 * `region` reads national-format numbers (e.g. the place's country_code).
 * @example enrichPhone('+49 1512 3456789') // { carrier_name: 'T-Mobile', carrier_type: 'mobile' }
 * @example enrichPhone('(212) 736-5000', 'US') // { carrier_name: null, carrier_type: 'mobile_or_landline' }
 */
export function enrichPhone(phone: string | null | undefined, region?: string | null): PhoneEnrichment {
  if (typeof phone !== 'string' || phone.trim() === '') return { carrier_name: null, carrier_type: null };
  const rec = phoneRecord(phone, { region });
  return { carrier_name: rec.carrier_name, carrier_type: rec.carrier_type };
}
