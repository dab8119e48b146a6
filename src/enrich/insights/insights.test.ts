import { test } from 'node:test';
import assert from 'node:assert/strict';
import type http from 'node:http';
import { Executor } from '../../fetch/executor.ts';
import { loopback } from '../../fetch/loopback.testkit.ts';
import { enrichRecords } from '../index.ts';
import { siteTechnologies } from './technologies.ts';
import { insightFields } from './insights.ts';

const ld = (o: unknown) => `<script type="application/ld+json">${JSON.stringify(o)}</script>`;
const pages: Record<string, string> = {
  '/': `<html><head><meta name="generator" content="WordPress 6.4.2"><link rel="stylesheet" href="/wp-content/themes/k/style.css">
    <script async src="https://www.googletagmanager.com/gtm.js?id=GTM-ABC123"></script>
    ${ld({ '@context': 'https://schema.org', '@graph': [{ '@type': 'WebSite', name: 'Kafe site' },
      { '@type': 'CafeOrCoffeeShop', name: 'Kafe Example', logo: { '@type': 'ImageObject', url: '/img/logo.png' },
        address: { '@type': 'PostalAddress', streetAddress: 'Ermou 1', postalCode: '10563', addressLocality: 'Athens', addressCountry: 'GR' },
        sameAs: ['https://www.facebook.com/kafeexample', 'https://www.instagram.com/kafe.ex/'] }] })}
    </head><body><a href="/about-us">About</a></body></html>`,
  '/about-us': `<html><body>${ld({ '@context': 'https://schema.org', '@type': 'Organization', name: 'Kafe Example', legalName: 'Kafe Example IKE',
    foundingDate: '2011-05-01', numberOfEmployees: { '@type': 'QuantitativeValue', minValue: 11, maxValue: 50 } })}</body></html>`,
};

test('technology hints: generator meta and platform markers only', () => {
  assert.deepEqual(siteTechnologies([pages['/']]), ['Google Tag Manager', 'WordPress 6.4.2']);
  assert.deepEqual(siteTechnologies(['<script src="https://cdn.shopify.com/s/x.js"></script><script id="__NEXT_DATA__">{}</script>']), ['Next.js', 'Shopify']);
  assert.deepEqual(siteTechnologies(['<p>We love WordPress and jQuery</p>']), [], 'words in prose are no markers');
});

test('insights from the pages contacts fetched; fetched once when both are asked; null where the site says nothing', async (t) => {
  const srv = await loopback((req: http.IncomingMessage, res: http.ServerResponse) => {
    const body = pages[(req.url ?? '/').split('?')[0]];
    if (req.url === '/bare') { res.writeHead(200, { 'content-type': 'text/html' }); res.end('<p>Hello</p>'); return; }
    if (body === undefined) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(body);
  });
  const ex = new Executor({ allowPrivateTargets: true, retries: 0, timeoutMs: 2000 });
  t.after(async () => { await ex.close(); await srv.close(); });
  const places: Record<string, unknown>[] = [{ name: 'Kafe', site: srv.url, country_code: 'GR' }, { name: 'Bare', site: `${srv.url}/bare` }, { name: 'None', site: null }];
  await enrichRecords('/maps/search', places, { enrichment: ['company_insights_service', 'contacts_n_leads'] }, {}, (s) => ex.run(s));
  assert.equal(srv.hits.get('/'), 1, 'home fetched once for both enrichments');
  assert.equal(srv.hits.get('/about-us'), 1);
  const [a, b, c] = places;
  assert.deepEqual({ ...a, contacts: undefined }, {
    ...a, contacts: undefined,
    company_name: 'Kafe Example', company_legal_name: 'Kafe Example IKE', company_founded: '2011-05-01', company_employees: '11-50',
    company_logo: `${srv.url}/img/logo.png`, company_type: 'CafeOrCoffeeShop', company_address: 'Ermou 1, 10563, Athens, GR',
    company_same_as: ['https://www.facebook.com/kafeexample', 'https://www.instagram.com/kafe.ex/'],
    site_technologies: ['Google Tag Manager', 'WordPress 6.4.2'],
  });
  assert.equal(a.company_legal_name, 'Kafe Example IKE');
  assert.equal(a.facebook, 'https://www.facebook.com/kafeexample');
  assert.deepEqual([b.company_legal_name, b.company_founded, b.company_employees, b.company_logo, b.company_type, b.site_technologies], [null, null, null, null, null, []]);
  assert.deepEqual([c.company_legal_name, c.site_technologies, c.site_status], [null, null, null]);
  assert.deepEqual(insightFields({ status: null, finalUrl: null, error: null, pages: [] }).company_same_as, null);
});
