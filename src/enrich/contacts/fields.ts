/**
 * Place fields of `contacts_n_leads` from a site visit: `email_1..n` with `email_N_role` and
 * `email_N_disposable` flags (role accounts such as info@ and throw-away domains are flagged, not
 * dropped), `phone_1..n` (E.164), one field per social network, `contacts[]`, `site_status`,
 * `site_redirect`, `site_error`. Site e-mails first on the site's own domain, then others, in page order.
 */
import { isDisposableEmail } from '../../lookups/email/index.ts';
import { isRoleAccount } from '../../lookups/email/lists.ts';
import { registrableDomain } from '../../sources/places-by-domain/domain.ts';
import { SOCIAL_NETWORKS } from './social.ts';
import type { Contact } from './extract.ts';
import type { SiteVisit } from './crawl.ts';

/** At most this many e-mails and phones per place (a page listing a whole directory is not a place's contacts). */
export const MAX_PER_KIND = 10;

export function contactFields(v: SiteVisit): Record<string, unknown> {
  const out: Record<string, unknown> = { site_status: v.status, site_redirect: v.finalUrl, site_error: v.error };
  const emails = [...new Set(v.pages.flatMap((p) => p.facts.emails))];
  const own = registrableDomain(v.pages[0]?.url);
  const mine = (e: string) => own !== null && registrableDomain(e.split('@')[1]) === own;
  const sorted = [...emails.filter(mine), ...emails.filter((e) => !mine(e))];
  sorted.slice(0, MAX_PER_KIND).forEach((e, i) => {
    out[`email_${i + 1}`] = e;
    out[`email_${i + 1}_role`] = isRoleAccount(e.split('@')[0]);
    out[`email_${i + 1}_disposable`] = isDisposableEmail(e);
  });
  [...new Set(v.pages.flatMap((p) => p.facts.phones))].slice(0, MAX_PER_KIND).forEach((p, i) => { out[`phone_${i + 1}`] = p; });
  for (const n of SOCIAL_NETWORKS) out[n] = v.pages.map((p) => p.facts.socials[n]).find(Boolean) ?? null;
  const seen = new Set<string>();
  const contacts: Contact[] = [];
  // Copies: places sharing one site visit must not share objects of their records.
  for (const c of v.pages.flatMap((p) => p.facts.contacts)) if (!seen.has(c.name)) { seen.add(c.name); contacts.push({ ...c }); }
  out.contacts = contacts;
  return out;
}
