/**
 * Every field an enrichment adds to a place is a property of the OpenAPI `Place` schema: all nine
 * enrichments run on constructed places whose website says everything (e-mails, phones, every social
 * network, a team card, JSON-LD company data), and each key they add is looked up in the document
 * (numbered fields by their first member: `email_3_role` → `email_1_role`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FetchedResponse, Step } from '../src/sources/_kit/adapter.ts';
import { enrichRecords } from '../src/enrich/index.ts';
import { SUPPORTED_ENRICHMENTS } from '../src/contract/enrichments.ts';
import { SOCIAL_NETWORKS } from '../src/enrich/contacts/social.ts';
import { openApiDocument } from '../src/http/openapi.ts';

const ld = {
  '@context': 'https://schema.org', '@type': 'CafeOrCoffeeShop', name: 'Kafe Example', legalName: 'Kafe Example IKE', foundingDate: '2011',
  numberOfEmployees: { '@type': 'QuantitativeValue', minValue: 10, maxValue: 20 }, logo: '/logo.png',
  address: { '@type': 'PostalAddress', streetAddress: 'Ermou 1', addressLocality: 'Athens' }, sameAs: ['https://www.facebook.com/kafeexample'],
};
const socials = ['https://www.facebook.com/kafeexample', 'https://www.instagram.com/kafe.ex/', 'https://www.linkedin.com/company/kafe/', 'https://x.com/kafe_ex',
  'https://www.youtube.com/@kafe', 'https://www.tiktok.com/@kafe', 'https://www.pinterest.com/kafe/'];
const pages: Record<string, string> = {
  'https://kafe.test/': `<html><head><meta name="generator" content="WordPress 6.4"><script type="application/ld+json">${JSON.stringify(ld)}</script></head><body>
    <h1>Kafe Example</h1><p>Ermou 1, Athens</p><a href="mailto:info@kafe.test">mail</a> <a href="mailto:anna@kafe.test">anna</a> <a href="tel:+302101234567">call</a>
    ${socials.map((s) => `<a href="${s}">s</a>`).join(' ')} <a href="/team">Team</a></body></html>`,
  'https://kafe.test/team': `<div class="team-member"><h3>Anna Example</h3><p class="role">Owner</p><a href="mailto:anna@kafe.test">mail</a></div>
    <p>Also 210 765 4321, sales@kafe.test</p>`,
};

async function fetch(s: Step): Promise<FetchedResponse> {
  const body = pages[s.url];
  if (body === undefined) return { status: 404, url: s.url, headers: {}, body: '' };
  return { status: 200, url: s.url, headers: {}, body };
}

test('OpenAPI Place documents every field the enrichments add', async () => {
  const place = { query: 'q', name: 'Kafe Example', site: null, menu_link: 'https://kafe.test/menu', city: 'Athens', phone: '+30 21 0123 4567',
    country_code: 'GR', category: 'Cafe', type: 'Cafe' };
  const records: Record<string, unknown>[] = [{ ...place }];
  // DNS on a closed loopback port: the validator answers at once, without the network.
  await enrichRecords('/maps/search', records, { enrichment: [...SUPPORTED_ENRICHMENTS] }, { dnsServers: ['127.0.0.1:9'], dnsTimeoutMs: 200 }, fetch);
  const r = records[0];
  assert.equal(r.site_source, 'place_links', 'the finder found the site, so every site enrichment had it to read');
  assert.equal(r.email_3, 'sales@kafe.test');
  for (const n of SOCIAL_NETWORKS) assert.ok(r[n], `${n} found`);
  assert.equal(r.company_legal_name, 'Kafe Example IKE');
  const added = Object.keys(r).filter((k) => !(k in place) || k === 'site');
  const props = (openApiDocument('http://localhost').components.schemas as Record<string, { properties: Record<string, unknown> }>).Place.properties;
  const missing = added.map((k) => k.replace(/^(email|phone)_\d+/, '$1_1')).filter((k) => !(k in props));
  assert.deepEqual([...new Set(missing)], [], 'fields added by an enrichment but not in the OpenAPI Place schema');
});
