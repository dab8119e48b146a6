/**
 * `/directory-phones` records: numbering-plan facts of one phone number (formats, validity,
 * country, area, line type, original carrier, time zones). A fact the plan does not tell is null.
 */
import { Type, literals } from '../dsl.ts';
import { nstr, record, str, strs } from './fields.ts';

export const PHONE_STATUSES = ['VALID', 'INVALID', 'NOT_A_NUMBER', 'REGION_REQUIRED'] as const;
export const LINE_TYPES = ['mobile', 'fixed_line', 'fixed_line_or_mobile', 'voip', 'toll_free', 'premium_rate', 'shared_cost',
  'personal_number', 'pager', 'uan', 'voicemail', 'unknown'] as const;
/** The line type in carrier terms (as the maps phone enrichment gives it). */
export const CARRIER_TYPES = ['mobile', 'landline', 'mobile_or_landline', 'voip', 'toll_free', 'premium_rate', 'shared_cost',
  'personal_number', 'pager', 'uan', 'voicemail'] as const;

export const phoneLookupRecord = record('PhoneIdentity', 'Phone identity: numbering-plan facts (E.164 forms, validity, country, region, line type, original carrier, time zones).', {
  query: str('The number as given.'),
  status: literals(PHONE_STATUSES, 'VALID: a number of a known range; INVALID: read, but no range matches; NOT_A_NUMBER: no number in the text; REGION_REQUIRED: a national form without the region parameter.'),
  status_details: str('Why, in words.'),
  valid: Type.Boolean({ description: 'A number of an assigned range.' }),
  possible: Type.Boolean({ description: 'Its length fits the numbering plan.' }),
  e164: nstr('E.164 form, e.g. +442012345678.'),
  national: nstr('National form.'),
  international: nstr('International form.'),
  country_code: nstr('ISO 3166-1 alpha-2 of the numbering plan; null for non-geographic codes (+800, +882 ...).'),
  calling_code: nstr('Country calling code, without +.'),
  extension: nstr('Extension, when the text has one.'),
  region: nstr('Area the range is assigned to (city or region), in the language parameter where the data has it.'),
  line_type: literals(LINE_TYPES, 'Line type of the range.'),
  carrier: nstr('Original range holder (the number may have been ported since).'),
  carrier_name: nstr('The same as carrier (the maps phone enrichment\'s name for it).'),
  carrier_type: Type.Union([literals(CARRIER_TYPES), Type.Null()], { description: 'The line type in carrier terms.' }),
  time_zones: strs('IANA zones of the range.'),
});
