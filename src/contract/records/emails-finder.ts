/**
 * `/emails-finder` records: the professional address of one person at one company domain.
 */
import type { Static } from '@sinclair/typebox';
import { Type } from '../dsl.ts';
import { nbool, nstr, record, str, strs } from './fields.ts';

export const EMAIL_STATUSES = ['RECEIVING', 'NOT_RECEIVING', 'CATCH_ALL', 'UNKNOWN', 'INVALID_FORMAT', 'DISPOSABLE'] as const;

export const finderRecord = record('EmailsFinderRecord', 'The address found for a person at a company domain, with how sure it is.', {
  query: str('The query item as given: full name and domain.'),
  full_name: nstr('The name part of the query.'),
  first_name: nstr('First name.'),
  last_name: nstr('Last name.'),
  domain: nstr('Company domain.'),
  email: nstr('The address found (verified), the best guess on a catch-all domain, or null.'),
  status: Type.Union(EMAIL_STATUSES.map((s) => Type.Literal(s)), { description: 'Deliverability of `email`, as /email-validator says it.' }),
  status_details: str('Why, in words.'),
  verified: Type.Boolean({ description: 'The mail server accepted `email` on a domain that refuses made-up addresses.' }),
  pattern: nstr("Pattern of `email`, e.g. 'first.last', 'flast'."),
  candidates_tried: strs('Addresses the server was asked about, in order.'),
  is_catch_all: nbool('The domain accepts any address.'),
  mx: strs('Mail servers of the domain, by preference.'),
});

export type FinderRecord = Static<typeof finderRecord>;
