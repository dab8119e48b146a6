import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import type { FetchedResponse, Step } from '../../sources/_kit/adapter.ts';
import { findWebsite, ownLinkDomains, pageMentionsPlace, searchResultDomains } from './finder.ts';
import { enrichRecords } from '../index.ts';

// Constructed pages: a DuckDuckGo HTML results page (its `a.result__a` redirect links) and candidate sites.
const results = (...urls: string[]) => `<html><body><div class="results">${urls.map((u) =>
  `<div class="result"><h2><a class="result__a" href="//duckduckgo.com/l/?uddg=${encodeURIComponent(u)}&amp;rut=x">t</a></h2></div>`).join('')}</div></body></html>`;
const place = { name: 'Kafe Aroma', city: 'Athens', phone: '+30 21 0123 4567', country_code: 'GR', site: null };

function fakeWeb(pages: Record<string, string>) {
  const asked: string[] = [];
  const fetch = async (s: Step): Promise<FetchedResponse> => {
    asked.push(s.url);
    const body = pages[s.url];
    if (body === undefined) throw Object.assign(new Error('unreachable'), { type: 'network' });
    return { status: 200, url: s.url, headers: {}, body };
  };
  return { fetch, asked };
}

test('the rule: name and (city or phone) on the page', () => {
  assert.equal(pageMentionsPlace('<h1>Kafe Aroma</h1><p>Ermou 1, Athens</p>', 'https://a.gr/', place), true);
  assert.equal(pageMentionsPlace('<h1>Kafe Aroma</h1><a href="tel:+302101234567">call</a>', 'https://a.gr/', place), true);
  assert.equal(pageMentionsPlace('<h1>Kafe Aroma</h1><p>Thessaloniki</p>', 'https://a.gr/', place), false, 'name alone is not enough');
  assert.equal(pageMentionsPlace('<h1>Aroma Coffee</h1><p>Athens</p>', 'https://a.gr/', place), false);
  assert.deepEqual(searchResultDomains(results('https://www.tripadvisor.com/x', 'https://kafearoma.gr/', 'https://www.facebook.com/ka', 'https://other.gr/a')), ['kafearoma.gr', 'other.gr']);
  assert.deepEqual(ownLinkDomains({ menu_link: 'https://www.kafearoma.gr/menu', reservation_links: ['https://www.opentable.com/r/x'], order_links: [{ link: 'https://www.efood.gr/x' }] }), ['kafearoma.gr']);
});

test('own links first, then the search; only accepted candidates; a place with a site keeps it', async () => {
  const web = fakeWeb({
    'https://kafearoma.gr/': '<h1>Kafe Aroma</h1><p>Athens</p>',
    [`https://html.duckduckgo.com/html/?q=${encodeURIComponent('Kafe Aroma Athens')}`]: results('https://wrong.gr/', 'https://kafe-aroma.com/'),
    'https://wrong.gr/': '<h1>Kafe Aroma</h1><p>Patras</p>',
    'https://kafe-aroma.com/': '<title>Kafe Aroma</title><p>Call 210 123 4567</p>',
  });
  assert.deepEqual(await findWebsite({ ...place, menu_link: 'https://kafearoma.gr/menu' }, web.fetch), { site: 'https://kafearoma.gr/', site_source: 'place_links' });
  assert.deepEqual(await findWebsite(place, web.fetch), { site: 'https://kafe-aroma.com/', site_source: 'web_search' }, 'wrong.gr names another city: refused');
  assert.deepEqual(await findWebsite({ ...place, name: 'Nowhere Bar' }, web.fetch), { site: null, site_source: null }, 'the search failed: nothing guessed');
  const before = web.asked.length;
  assert.deepEqual(await findWebsite({ ...place, site: 'https://given.gr/' }, web.fetch), { site: 'https://given.gr/', site_source: 'place' });
  assert.equal(web.asked.length, before, 'no fetch for a place with a site');
});

test('enrichRecords: the finder runs before contacts, which then read the found site', async () => {
  const web = fakeWeb({
    [`https://html.duckduckgo.com/html/?q=${encodeURIComponent('Kafe Aroma Athens')}`]: results('https://kafe-aroma.com/'),
    'https://kafe-aroma.com/': '<h1>Kafe Aroma</h1><p>Athens · hello@kafe-aroma.com</p>',
  });
  const places: Record<string, unknown>[] = [{ ...place }];
  await enrichRecords('/maps/search', places, { enrichment: ['contacts_n_leads', 'company_websites_finder'] }, {}, web.fetch);
  assert.equal(places[0].site, 'https://kafe-aroma.com/');
  assert.equal(places[0].site_source, 'web_search');
  assert.equal(places[0].email_1, 'hello@kafe-aroma.com');
});

const sample = (name: string) => readFileSync(new URL(`./constructed-results-${name}.html`, import.meta.url), 'utf8');

test('results page layouts: no-JS older (redirect links) and newer (direct links), lite; ads and platforms left out', () => {
  assert.deepEqual(searchResultDomains(sample('html-redirect')), ['kafearoma.gr', 'athens-cafes.example'], 'the ad and tripadvisor are no candidates');
  assert.deepEqual(searchResultDomains(sample('html-direct')), ['kafe-aroma.com', 'kafearoma.gr'], 'the ad, facebook and the instant answer are no candidates');
  assert.deepEqual(searchResultDomains(sample('lite')), ['kafearoma.gr', 'kafe-aroma.com'], 'the sponsored row and yelp are no candidates');
  assert.deepEqual(searchResultDomains(sample('challenge')), [], 'a bot check page has no results (the place keeps no site)');
});

test('the finder reads the newer results layout end to end', async () => {
  const web = fakeWeb({
    [`https://html.duckduckgo.com/html/?q=${encodeURIComponent('Kafe Aroma Athens')}`]: sample('html-direct'),
    'https://kafe-aroma.com/': '<h1>Kafe Aroma</h1><p>Ermou 1, Athens</p>',
  });
  assert.deepEqual(await findWebsite(place, web.fetch), { site: 'https://kafe-aroma.com/', site_source: 'web_search' });
  assert.ok(!web.asked.some((u) => u.includes('advertiser.example')), 'the ad was never fetched');
});
