/** E-mail, phone and company lookups (interface 4.5). */
import { defineEndpoint, type DataEndpoint } from '../endpoint.ts';
import { emailRecord, phoneRecord } from '../records.ts';
import { finderRecord } from '../records/emails-finder.ts';
import { oneOf } from '../dsl.ts';
import { LANGUAGES, REGIONS } from '../enums.ts';

export const emailValidator = defineEndpoint({
  path: '/email-validator', aliases: ['/validators/email'], family: 'lookups', summary: 'Deliverability of e-mail addresses.',
  queryDoc: 'E-mail addresses.', params: {}, shared: ['async', 'webhook'], record: emailRecord, unit: 'email', service: 'email_validator_service',
});

export const emailsFinder = defineEndpoint({
  path: '/emails-finder', family: 'lookups', summary: 'Professional e-mail address of a person at a company.',
  queryDoc: 'Full name and company domain separated by a space, e.g. `Jane Doe example.com`.', params: {}, shared: ['webhook'],
  record: finderRecord, unit: 'email', service: 'emails_finder_service',
});

export const directoryPhones = defineEndpoint({
  path: '/directory-phones', family: 'lookups', summary: 'Insights about phone numbers: E.164, national and international forms, validity, country, region, line type, original carrier, time zones.',
  queryDoc: 'Phone numbers (E.164 preferred; national forms need `region`).',
  params: {
    region: oneOf(REGIONS, { caseInsensitive: true, doc: 'Country to read numbers without a leading + in (not in the interface table; optional).' }),
    language: oneOf(LANGUAGES, { doc: 'Extension (not in the interface): language of area and carrier names; English where the data has none in it.' }),
  }, shared: [], record: phoneRecord, unit: 'phone', service: 'directory_phones_service',
});

export const lookupEndpoints: DataEndpoint[] = [emailValidator, emailsFinder, directoryPhones];
