/** E-mail, phone and company lookups (interface 4.5). */
import type { DataEndpoint } from '../endpoint.ts';
import { emailRecord, genericRecord, phoneRecord } from '../records.ts';

export const lookupEndpoints: DataEndpoint[] = [
  {
    path: '/email-validator', aliases: ['/validators/email'], family: 'lookups', summary: 'Deliverability of e-mail addresses.',
    queryDoc: 'E-mail addresses.', params: {}, shared: ['async', 'webhook'], record: emailRecord, unit: 'email', service: 'email_validator_service',
  },
  {
    path: '/emails-finder', family: 'lookups', summary: 'Professional e-mail address of a person at a company.',
    queryDoc: 'Full name and company domain separated by a space, e.g. `Jane Doe example.com`.', params: {}, shared: ['webhook'],
    record: genericRecord, unit: 'email', service: 'emails_finder_service',
  },
  {
    path: '/directory-phones', family: 'lookups', summary: 'Insights about phone numbers.', queryDoc: 'Phone numbers (E.164 preferred).',
    params: {}, shared: [], record: phoneRecord, unit: 'phone', service: 'directory_phones_service',
  },
];
