/**
 * `company_insights_service`: what a business's website says about the company, from the pages
 * `contacts_n_leads` fetched (shared visit, never fetched twice): its JSON-LD `Organization` /
 * `LocalBusiness` (and their subtypes) and the site's technology hints. Null where the site says
 * nothing; nothing is guessed.
 *
 * @example insightFields(visit).company_legal_name // 'Kafe Example IKE'
 */
import { jsonLd, ldText, type JsonLd } from '../../sources/_kit/jsonld.ts';
import type { SiteVisit } from '../contacts/crawl.ts';
import { siteTechnologies } from './technologies.ts';

/** JSON-LD types that describe something other than the company. */
const NOT_COMPANY = /^(WebSite|WebPage|ItemPage|AboutPage|ContactPage|CollectionPage|BreadcrumbList|ListItem|Person|Product|Offer|AggregateOffer|Review|AggregateRating|ImageObject|VideoObject|Article|BlogPosting|NewsArticle|FAQPage|Question|Answer|Event|SearchAction|PostalAddress|GeoCoordinates|OpeningHoursSpecification|Menu|SiteNavigationElement|ReadAction|EntryPoint)$/;
const COMPANY_FIELDS = ['legalName', 'foundingDate', 'numberOfEmployees', 'logo', 'sameAs', 'address', 'telephone', 'vatID', 'taxID'];

const typesOf = (o: JsonLd): string[] => (Array.isArray(o['@type']) ? o['@type'] : [o['@type']])
  .filter((t): t is string => typeof t === 'string').map((t) => t.replace(/^(?:https?:\/\/schema\.org\/|schema:)/i, ''));

/** The company object of a page: typed Organization/LocalBusiness-like, with a name or a company field. */
function companyOf(all: JsonLd[]): JsonLd | null {
  const candidates = all.filter((o) => {
    const types = typesOf(o);
    return types.length > 0 && !types.every((t) => NOT_COMPANY.test(t)) && (ldText(o.name) !== null || COMPANY_FIELDS.some((k) => o[k] !== undefined));
  });
  const org = candidates.find((o) => typesOf(o).some((t) => /Organization|Corporation|LocalBusiness/.test(t)));
  return org ?? candidates.find((o) => COMPANY_FIELDS.some((k) => o[k] !== undefined)) ?? null;
}

/** `numberOfEmployees`: a number, or a QuantitativeValue `value` / `minValue`–`maxValue` range. */
function employees(v: unknown): string | null {
  if (Array.isArray(v)) return employees(v[0]);
  if (v && typeof v === 'object') {
    const q = v as JsonLd;
    const exact = ldText(q.value);
    if (exact) return exact;
    const lo = ldText(q.minValue);
    const hi = ldText(q.maxValue);
    return lo && hi ? `${lo}-${hi}` : lo ? `${lo}+` : hi ? `up to ${hi}` : null;
  }
  return ldText(v);
}

function url(v: unknown, base: string): string | null {
  const raw = v && typeof v === 'object' && !Array.isArray(v) ? ldText((v as JsonLd).url ?? (v as JsonLd).contentUrl) : ldText(v);
  if (!raw) return null;
  try {
    return new URL(raw, base).href;
  } catch {
    return null;
  }
}

function address(v: unknown): string | null {
  if (Array.isArray(v)) return address(v[0]);
  if (v && typeof v === 'object') {
    const a = v as JsonLd;
    const parts = [a.streetAddress, a.postalCode, a.addressLocality, a.addressRegion, ldText(a.addressCountry?.name) ?? a.addressCountry].map(ldText).filter(Boolean);
    return parts.length ? parts.join(', ') : null;
  }
  return ldText(v);
}

export function insightFields(v: SiteVisit): Record<string, unknown> {
  const out: Record<string, unknown> = {
    company_name: null, company_legal_name: null, company_founded: null, company_employees: null, company_logo: null,
    company_type: null, company_address: null, company_same_as: [], site_technologies: [],
  };
  if (!v.pages.length) { out.site_technologies = null; out.company_same_as = null; return out; }
  for (const p of v.pages) {
    const o = companyOf(jsonLd(p.html));
    if (!o) continue;
    out.company_name ??= ldText(o.name);
    out.company_legal_name ??= ldText(o.legalName);
    out.company_founded ??= ldText(o.foundingDate);
    out.company_employees ??= employees(o.numberOfEmployees);
    out.company_logo ??= url(o.logo, p.url);
    out.company_type ??= typesOf(o)[0] ?? null;
    out.company_address ??= address(o.address);
    const same = (Array.isArray(o.sameAs) ? o.sameAs : [o.sameAs]).map((x: unknown) => url(x, p.url)).filter(Boolean) as string[];
    out.company_same_as = [...new Set([...(out.company_same_as as string[]), ...same])];
  }
  out.site_technologies = siteTechnologies(v.pages.map((p) => p.html));
  return out;
}
