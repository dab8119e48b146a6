/**
 * The `/directory-phones` record: validity, formats and type from libphonenumber-js (max metadata),
 * geocoded area, original carrier and time zones from libphonenumber's prefix files.
 *
 * Which numbers get an area, a carrier and zones follows libphonenumber's own rules, so answers match
 * what Google's Java/C++ geocoder, carrier mapper and time-zone mapper would say.
 */
import type { Static } from '@sinclair/typebox';
import type { NumberType, PhoneNumber } from 'libphonenumber-js/max';
import type { phoneLookupRecord } from '../../contract/records/directory-phones.ts';
import { parsePhone } from './parse.ts';
import { dataLocales, longestPrefix, prefixTable, timeZoneTable } from './prefix-data.ts';

export type PhoneRecord = Static<typeof phoneLookupRecord>;
export type LineType = PhoneRecord['line_type'];
/** `carrier_type` of the maps `phones_enricher_service`: the line type in carrier terms. */
export type CarrierType = NonNullable<PhoneRecord['carrier_type']>;
/** VALID: a number of a known range. INVALID: read, but no range matches (or the parse failed on
 *  length/country). NOT_A_NUMBER: no number in the text. REGION_REQUIRED: national format, no region. */
export type PhoneStatus = PhoneRecord['status'];

export interface PhoneOptions {
  /** Country for numbers written without '+', e.g. the request's `region` ('US', 'de'). */
  region?: string | null;
  /** Language of the area names ('en' default; 'de', 'fr', 'zh-TW'…; falls back to English). */
  language?: string | null;
}

const LINE_TYPES: Record<NonNullable<NumberType>, LineType> = {
  MOBILE: 'mobile',
  FIXED_LINE: 'fixed_line',
  FIXED_LINE_OR_MOBILE: 'fixed_line_or_mobile',
  VOIP: 'voip',
  TOLL_FREE: 'toll_free',
  PREMIUM_RATE: 'premium_rate',
  SHARED_COST: 'shared_cost',
  PERSONAL_NUMBER: 'personal_number',
  PAGER: 'pager',
  UAN: 'uan',
  VOICEMAIL: 'voicemail',
};

const CARRIER_TYPES: Record<LineType, CarrierType | null> = {
  mobile: 'mobile',
  fixed_line: 'landline',
  fixed_line_or_mobile: 'mobile_or_landline',
  voip: 'voip',
  toll_free: 'toll_free',
  premium_rate: 'premium_rate',
  shared_cost: 'shared_cost',
  personal_number: 'personal_number',
  pager: 'pager',
  uan: 'uan',
  voicemail: 'voicemail',
  unknown: null,
};

/** Calling codes where libphonenumber geocodes mobile ranges too (its GEO_MOBILE_COUNTRIES). */
const GEO_MOBILE_CODES = new Set(['52', '54', '55', '62', '84', '86']);

/** libphonenumber's isNumberGeographical: only these ranges belong to a place. */
function isGeographical(type: LineType, callingCode: string): boolean {
  return (
    type === 'fixed_line' || type === 'fixed_line_or_mobile' || (type === 'mobile' && GEO_MOBILE_CODES.has(callingCode))
  );
}

/** libphonenumber's carrier mapper answers only for ranges that can be mobile. */
function canHaveCarrier(type: LineType): boolean {
  return type === 'mobile' || type === 'fixed_line_or_mobile' || type === 'pager';
}

function lookupLocalised(kind: 'geocodes' | 'carrier', language: string | null | undefined, cc: string, nsn: string) {
  for (const locale of dataLocales(kind, language ?? undefined)) {
    const hit = longestPrefix(prefixTable(kind, locale, cc), nsn);
    if (hit) return hit;
  }
  return null;
}

function timeZones(phone: PhoneNumber, type: LineType): string[] {
  const digits = phone.number.slice(1);
  // Non-geographical numbers only get the zones of their whole country code.
  const key = isGeographical(type, phone.countryCallingCode) ? digits : phone.countryCallingCode;
  const zones = longestPrefix(timeZoneTable(), key);
  return zones ? zones.split('&') : [];
}

function emptyRecord(query: string, status: PhoneStatus, details: string): PhoneRecord {
  return {
    query,
    status,
    status_details: details,
    valid: false,
    possible: false,
    e164: null,
    national: null,
    international: null,
    country_code: null,
    calling_code: null,
    extension: null,
    region: null,
    line_type: 'unknown',
    carrier: null,
    carrier_name: null,
    carrier_type: null,
    time_zones: [],
  };
}

/**
 * Everything offline data tells about one phone number. Never throws on bad input.
 * @example phoneRecord('+49 1512 3456789').carrier_name // 'T-Mobile'
 * @example phoneRecord('(212) 736-5000', { region: 'US' }).region // 'New York, NY'
 * @example phoneRecord('hello').status // 'NOT_A_NUMBER'
 */
export function phoneRecord(query: string, opts: PhoneOptions = {}): PhoneRecord {
  const q = typeof query === 'string' ? query : String(query ?? '');
  const parsed = parsePhone(q, opts.region ?? undefined);
  if (!parsed.ok) return emptyRecord(q, parsed.status, parsed.details);
  const phone = parsed.phone;
  const numberType = phone.getType();
  const valid = numberType !== undefined ? true : phone.isValid();
  const lineType: LineType = numberType ? LINE_TYPES[numberType] : 'unknown';
  const cc = phone.countryCallingCode;
  const nsn = phone.nationalNumber;
  const rec = emptyRecord(q, valid ? 'VALID' : 'INVALID', '');
  rec.valid = valid;
  rec.possible = phone.isPossible();
  rec.e164 = phone.number;
  rec.national = phone.formatNational();
  rec.international = phone.formatInternational();
  rec.country_code = phone.country ?? null;
  rec.calling_code = cc;
  rec.extension = phone.ext ?? null;
  rec.line_type = lineType;
  if (!valid) {
    rec.status_details = rec.possible
      ? 'the number has a possible length but belongs to no assigned range'
      : 'the number matches no numbering plan';
    return rec;
  }
  rec.status_details = parsed.regionUsed ? `valid; national format read as ${parsed.regionUsed}` : 'valid';
  if (isGeographical(lineType, cc)) rec.region = lookupLocalised('geocodes', opts.language, cc, nsn);
  if (canHaveCarrier(lineType)) rec.carrier = lookupLocalised('carrier', opts.language, cc, nsn);
  rec.carrier_name = rec.carrier;
  rec.carrier_type = CARRIER_TYPES[lineType];
  rec.time_zones = timeZones(phone, lineType);
  return rec;
}
