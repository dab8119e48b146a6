/**
 * Fields the `/maps/search` enrichments add to a place (docs/enrichments.md), present only when the
 * enrichment was asked. Numbered fields (`email_1..10`, `email_N_role`, `email_N_disposable`,
 * `email_N_status`, `phone_1..10`) are documented by their first member.
 */
import { Type, type TSchema } from '../dsl.ts';
import { nbool, nstr, nint, nnum } from './fields.ts';

const opt = <T extends TSchema>(s: T) => Type.Optional(s);
const nstrs = (d: string) => Type.Union([Type.Array(Type.String()), Type.Null()], { description: d });

const social = (net: string) => opt(nstr(`contacts_n_leads: the ${net} profile URL linked by the site.`));

export const placeEnrichmentFields = {
  phone_carrier_name: opt(nstr('phones_enricher_service: the carrier the number was issued to.')),
  phone_carrier_type: opt(nstr('phones_enricher_service: line type (mobile, fixed_line, voip …).')),
  phone_info: opt(Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()],
    { description: 'directory_phones: the phone identity record of `phone` (as /phones-enricher answers it); null without phone.' })),
  is_chain: opt(nbool('ai_chain_info: the place is a branch of a brand in the name-suggestion-index; null without name or category.')),
  chain_name: opt(nstr('ai_chain_info: the brand name.')),
  chain_wikidata: opt(nstr('ai_chain_info: the brand\'s Wikidata id.')),
  email_1: opt(Type.String({ description: 'contacts_n_leads: e-mails found on the site (email_1..email_10), own domain first.' })),
  email_1_role: opt(Type.Boolean({ description: 'contacts_n_leads: the address is a role account (info@, sales@ …), per email_N.' })),
  email_1_disposable: opt(Type.Boolean({ description: 'The address is on a disposable domain, per email_N.' })),
  email_1_status: opt(Type.String({ description: 'emails_validator_service: RECEIVING, NOT_RECEIVING, CATCH_ALL, UNKNOWN, INVALID_FORMAT or DISPOSABLE, per email_N.' })),
  email_1_status_details: opt(Type.String({ description: 'emails_validator_service: why, per email_N.' })),
  phone_1: opt(Type.String({ description: 'contacts_n_leads: phones found on the site, E.164 (phone_1..phone_10).' })),
  facebook: social('facebook'),
  instagram: social('instagram'),
  linkedin: social('linkedin'),
  twitter: social('x/twitter'),
  youtube: social('youtube'),
  tiktok: social('tiktok'),
  pinterest: social('pinterest'),
  contacts: opt(Type.Array(Type.Object({ name: Type.String(), title: Type.Union([Type.String(), Type.Null()]), email: Type.Union([Type.String(), Type.Null()]) }),
    { description: 'contacts_n_leads: named people (team pages, JSON-LD Person).' })),
  site_status: opt(Type.Union([Type.Literal('reachable'), Type.Literal('redirected'), Type.Literal('error'), Type.Null()],
    { description: 'contacts_n_leads: how the site answered; null without site.' })),
  site_redirect: opt(nstr('contacts_n_leads: final URL when the site answered from another site.')),
  site_error: opt(nstr('contacts_n_leads: `<type>: <message>` when the site could not be read.')),
  site_source: opt(nstr('company_websites_finder: place | place_links | web_search; null when none was found.')),
  company_name: opt(nstr('company_insights_service: JSON-LD name of the company object.')),
  company_legal_name: opt(nstr('company_insights_service: JSON-LD legalName.')),
  company_founded: opt(nstr('company_insights_service: JSON-LD foundingDate, as written.')),
  company_employees: opt(nstr('company_insights_service: numberOfEmployees (a number or `min-max`).')),
  company_logo: opt(nstr('company_insights_service: logo URL.')),
  company_type: opt(nstr('company_insights_service: the schema.org type.')),
  company_address: opt(nstr('company_insights_service: JSON-LD PostalAddress parts joined.')),
  company_same_as: opt(nstrs('company_insights_service: JSON-LD sameAs links.')),
  site_technologies: opt(nstrs('company_insights_service: generator meta and platform markers.')),
  reviewsite_rating: opt(nnum('reviewsite_service: TrustScore 1-5.')),
  reviewsite_reviews: opt(nint('reviewsite_service: number of reviews.')),
  reviewsite_link: opt(nstr('reviewsite_service: profile URL.')),
  reviewsite_categories: opt(nstrs('reviewsite_service: category names, primary first.')),
} satisfies Record<string, TSchema>;
