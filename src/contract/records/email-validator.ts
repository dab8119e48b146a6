/**
 * `/email-validator` records (interface 2.5, decision 24): deliverability of one address, with the
 * facts it was judged on.
 */
import { Type } from '../dsl.ts';
import { nbool, nint, nstr, record, str, strs } from './fields.ts';
import { EMAIL_STATUSES } from './emails-finder.ts';

export const emailRecord = record('EmailVerification', 'E-mail verification.', {
  query: str('The address as given.'),
  status: Type.Union(EMAIL_STATUSES.map((s) => Type.Literal(s)), { description: 'Deliverability.' }),
  status_details: str('Why, in words (e.g. "SMTP validated").'),
  valid_format: Type.Boolean({ description: 'The address is well-formed.' }),
  in_blacklist: Type.Boolean({ description: 'On a disposable-address list.' }),
  valid_dns: nbool('The domain has somewhere to deliver mail (MX, or A/AAAA as implicit MX).'),
  valid_smtp: nbool('A mail server accepted the address at RCPT TO.'),
  email: nstr('The address as checked (ASCII domain); null when unreadable.'),
  domain: nstr('Its domain.'),
  mx: strs('Mail exchangers by priority (the domain itself for an implicit MX).'),
  is_catch_all: nbool('The domain accepts any address; null when not probed.'),
  is_role: Type.Boolean({ description: 'A role account (info@, sales@ ...).' }),
  is_free: Type.Boolean({ description: 'A free mail provider.' }),
  is_disposable: Type.Boolean({ description: 'A disposable-address domain.' }),
  did_you_mean: nstr('A likely intended address when the domain looks mistyped.'),
  smtp_code: nint('Code of the server\'s RCPT reply, when one was had.'),
});
