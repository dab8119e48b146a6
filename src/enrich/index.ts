/**
 * Enrichments of map places (interface 4.2 `enrichment`): extra fields computed after a query's
 * records are extracted. Only those backed by real lookups exist; asking for another one is a 422
 * at submit time (see `unsupportedEnrichments`), never a silent no-op.
 *
 * @example
 *   await enrichRecords('/maps/search', places, { enrichment: ['phones_enricher_service'] }, {})
 *   // each place gains phone_carrier_name, phone_carrier_type
 */
import type { SupportedEnrichment } from '../contract/enrichments.ts';
import { isOffline, type OfflineBatch } from './offline.ts';
import { callOnLookupThread } from '../lookups/threaded.ts';
import { crawlSite, siteUrl, type SiteFetch, type SiteVisit } from './contacts/crawl.ts';
import { contactFields } from './contacts/fields.ts';
import { insightFields } from './insights/insights.ts';
import { findWebsite } from './websites/finder.ts';
import { reviewsiteProfile } from '../sources/reviewsite/index.ts';
import { NO_PROFILE } from '../sources/reviewsite/record.ts';

type Rec = Record<string, unknown>;

/** What enrichers may use besides the record: lookup settings, and the executor for web pages. */
export interface EnrichDeps {
  settings: Record<string, unknown>;
  /** Runs a step through the executor (SSRF guard, per-host limits, size and time limits). */
  fetch?: SiteFetch;
  /** Site visits of this batch, by site address and country, so every enrichment and every place
   *  reading one website (a chain's branches often give the same one) fetches it once. */
  visits: Map<string, Promise<SiteVisit>>;
}
type Enricher = (r: Rec, deps: EnrichDeps) => Promise<void> | void;

/** Pages visited after a site's home page (CONTACTS_MAX_PAGES), and places enriched at once. */
const DEFAULT_MAX_PAGES = 3;
const PLACES_AT_ONCE = 8;

const numberSetting = (v: unknown, def: number) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : def);

/** The place's website visit, shared by every enrichment of the batch that reads it. */
function siteVisit(r: Rec, deps: EnrichDeps): Promise<SiteVisit> {
  // The country reads the site's national phone numbers, so it is part of the key.
  const key = `${siteUrl(r.site) ?? ''} ${(r.country_code as string | null) ?? ''}`;
  let v = deps.visits.get(key);
  if (!v) {
    const fetch = deps.fetch;
    v = fetch
      ? crawlSite(r.site, { fetch, maxPages: numberSetting(deps.settings.contactsMaxPages, DEFAULT_MAX_PAGES), region: (r.country_code as string | null) ?? null })
      : Promise.resolve({ status: 'error', finalUrl: null, error: 'no web access in this process', pages: [] });
    deps.visits.set(key, v);
  }
  return v;
}

/** The enrichments that read websites; the others are in ./offline.ts. */
const ENRICHERS: Partial<Record<SupportedEnrichment, Enricher>> = {
  // Before the e-mail enrichments, which read the addresses it finds (see ORDER).
  contacts_n_leads: async (r, deps) => {
    Object.assign(r, contactFields(await siteVisit(r, deps)));
  },
  // Reads the pages contacts_n_leads fetched (the same visit; a site is fetched once per batch).
  company_insights_service: async (r, deps) => {
    Object.assign(r, insightFields(await siteVisit(r, deps)));
  },
  // Fills `site` before the enrichments that read it (see ORDER).
  company_websites_finder: async (r, deps) => {
    Object.assign(r, deps.fetch ? await findWebsite(r, deps.fetch) : { site_source: r.site ? 'place' : null });
  },
  reviewsite_service: async (r, deps) => {
    Object.assign(r, deps.fetch ? await reviewsiteProfile(r.site, deps.fetch) : NO_PROFILE);
  },
};

const OFFLINE_MODULE = new URL('./offline.ts', import.meta.url);

/** Enrichments that produce fields others read run first, whatever order the client gave. */
const ORDER: SupportedEnrichment[] = ['company_websites_finder', 'contacts_n_leads'];

/** Runs `fn` over the items, at most `n` at once. */
async function pool<T>(items: T[], n: number, fn: (x: T) => Promise<void> | void): Promise<void> {
  let next = 0;
  const worker = async () => { while (next < items.length) await fn(items[next++]); };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
}

export async function enrichRecords(endpoint: string, records: Rec[], params: Rec, settings: Record<string, unknown>, fetch?: SiteFetch): Promise<Rec[]> {
  const asked = Array.isArray(params.enrichment) ? (params.enrichment as string[]) : [];
  if (!asked.length || endpoint !== '/maps/search') return records;
  const names = [...new Set(asked)].sort((a, b) => rank(a) - rank(b));
  const deps: EnrichDeps = { settings, fetch, visits: new Map() };
  for (const name of names) {
    if (isOffline(name)) {
      const batch: OfflineBatch = { name, records, settings };
      const added = await callOnLookupThread<OfflineBatch, Rec[]>(OFFLINE_MODULE, 'offlineFields', batch);
      records.forEach((r, i) => Object.assign(r, added[i]));
      continue;
    }
    const fn = (ENRICHERS as Record<string, Enricher | undefined>)[name];
    if (fn) await pool(records, PLACES_AT_ONCE, (r) => fn(r, deps));
  }
  return records;
}

function rank(name: string): number {
  const i = ORDER.indexOf(name as SupportedEnrichment);
  return i < 0 ? ORDER.length : i;
}
