/**
 * The hosted system's official Node client (npm `outscraper` 2.2.x, read from its public source; see
 * ../shared/notes/real-clients.md): each of its 38 methods, its request built as the client builds it
 * (GET: `path + '?' + querystring.stringify(params without null/undefined)`, empty strings kept;
 * POST: the JSON body without null keys; headers X-API-KEY and `client: Node SDK`), sent to trawl.
 * A method that works unchanged gets the answer shape the client reads (`data` when sync, `id`,
 * `status`, `results_location` when async; `items`, `next_cursor`, `has_more` for the business
 * search; the record itself for a business read); one that does not gets a JSON 404 the client hands
 * back as an error object (any non-JSON body would be an uncaught exception in it). The table in
 * docs/clients.md is checked against these rows, so the count there stays true.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { stringify } from 'node:querystring';
import { startHarness, until, type Harness } from './support/harness.ts';
import { businessStoreOf } from '../src/store/businesses/index.ts';
import { business } from '../src/store/businesses/conformance.ts';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h.close(); });

type Params = Record<string, unknown>;
interface Row { method: string; path: string; params?: Params; post?: boolean; works: boolean; async?: boolean }

const q = (query: unknown) => ({ query: Array.isArray(query) ? query : [query] });
/** The client's argument defaults, as its methods send them (null ones are dropped on the wire). */
const ROWS: Row[] = [
  { method: 'getRequestsHistory', path: '/requests', params: { type: 'running' }, works: true },
  { method: 'getRequestArchive', path: '/requests/{id}', params: {}, works: true },
  { method: 'googleSearch', path: '/google-search-v3', works: false },
  { method: 'googleSearchNews', path: '/google-search-news', works: false },
  { method: 'googleMapsSearch', path: '/maps/search-v2', params: { ...q('n=2'), language: 'en', region: null, organizationsPerQueryLimit: 20, skipPlaces: 0, dropDuplicates: false, enrichment: null, async: true }, works: true, async: true },
  { method: 'googleMapsSearchV3', path: '/maps/search-v3', params: { ...q('n=2'), language: 'en', region: null, organizationsPerQueryLimit: 20, skipPlaces: 0, dropDuplicates: false, enrichment: null, async: true }, works: true, async: true },
  { method: 'googleMapsDirections', path: '/maps/directions', works: false },
  { method: 'googleMapsReviews', path: '/maps/reviews-v3', params: { ...q('n=1'), reviewsLimit: 100, reviewsQuery: null, limit: 1, sort: 'most_relevant', lastPaginationId: null, start: null, cutoff: null, cutoffRating: null, ignoreEmpty: false, source: 'google', language: 'en', region: null, fields: '', async: false }, works: true },
  { method: 'getGoogleMapsPhotos', path: '/maps/photos-v3', works: false },
  { method: 'googlePlayReviews', path: '/google-play/reviews', works: false },
  { method: 'contactsAndLeads', path: '/contacts-and-leads', works: false },
  { method: 'emailsAndContacts', path: '/emails-and-contacts', works: false },
  { method: 'phonesEnricher', path: '/phones-enricher', works: false },
  { method: 'amazonProducts', path: '/amazon/products-v2', works: false },
  { method: 'amazonReviews', path: '/amazon/reviews', works: false },
  { method: 'yelpSearch', path: '/yelp-search', works: false },
  { method: 'yelpReviews', path: '/yelp/reviews', works: false },
  { method: 'tripadvisorReviews', path: '/tripadvisor-reviews', works: false },
  { method: 'appStoreReviews', path: '/appstore/reviews', works: false },
  { method: 'youtubeComments', path: '/youtube-comments', works: false },
  { method: 'g2Reviews', path: '/g2/reviews', works: false },
  { method: 'trustpilotReviews', path: '/trustpilot/reviews', works: false },
  { method: 'getGlassdoorReviews', path: '/glassdoor/reviews', works: false },
  { method: 'capterraReviews', path: '/capterra-reviews', works: false },
  { method: 'geocoding', path: '/geocoding', params: { ...q('n=1'), async: false }, works: true },
  { method: 'reverseGeocoding', path: '/reverse-geocoding', params: { ...q('n=1'), async: false }, works: true },
  { method: 'phoneIdentityFinder', path: '/whitepages-phones', works: false },
  { method: 'addressScraper', path: '/whitepages-addresses', works: false },
  { method: 'companyInsights', path: '/company-insights', works: false },
  { method: 'validateEmails', path: '/email-validator', params: { ...q('n=1'), async: false }, works: true },
  { method: 'trustpilot', path: '/trustpilot', works: false },
  { method: 'trustpilotSearch', path: '/trustpilot', works: false },
  { method: 'similarweb', path: '/similarweb', works: false },
  { method: 'companyWebsitesFinder', path: '/company-website-finder', works: false },
  { method: 'yellowpagesSearch', path: '/yellowpages-search', works: false },
  { method: 'businessesSearch', path: '/businesses', post: true, params: { filters: {}, limit: 10, include_total: false, cursor: null, fields: null, query: null, async: false, ui: false, webhook: null }, works: true },
  { method: 'businessesIterSearch', path: '/businesses', post: true, params: { filters: {}, limit: 1, include_total: false, cursor: null, fields: null, query: null, async: false, ui: false, webhook: null }, works: true },
  { method: 'businessesGet', path: '/businesses/{business}', params: { fields: null, async: false, ui: false, webhook: null }, works: true },
];

const dropNull = (p: Params = {}) => Object.fromEntries(Object.entries(p).filter(([, v]) => v !== null && v !== undefined));
const HEADERS = { 'client': 'Node SDK' };

/** One call as the client makes it; the body parsed as the client parses it (JSON.parse, whatever the status). */
async function call(row: Row, path: string, key = h.key): Promise<{ status: number; body: any; unknown: string | null }> {
  const res = row.post
    ? await h.get(path, { method: 'POST', key, headers: { ...HEADERS, 'content-type': 'application/json' }, body: JSON.stringify(dropNull(row.params)) })
    : await h.get(`${path}?${stringify(dropNull(row.params ?? { query: ['x'] }) as never)}`, { key, headers: HEADERS });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text), unknown: res.headers.get('x-unknown-parameters') };
}

test('38 methods; each that works unchanged gets the shape the client reads, each that does not a JSON error', async () => {
  assert.equal(ROWS.length, 38);
  const a = await h.newAccount({ balance: 100 });
  const biz = business(`node-client-${a.account.id}`, { name: 'Node client cafe' });
  await businessStoreOf(h.svc.ctx.store).upsertBusinesses(a.account.id, [biz], Date.now());
  const submitted = await call(ROWS[4], ROWS[4].path, a.key);
  for (const row of ROWS) {
    const path = row.path.replace('{id}', submitted.body.id).replace('{business}', encodeURIComponent(biz.os_id));
    const r = await call(row, path, a.key);
    const where = `${row.method} ${path}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`;
    if (!row.works) {
      assert.equal(r.status, 404, where);
      assert.equal(r.body.error, true, where);
      assert.match(r.body.errorMessage, /^404 Not Found/, where);
      continue;
    }
    assert.ok(!r.body?.error && !r.body?.errorMessage, where);
    if (row.method === 'getRequestsHistory') assert.ok(Array.isArray(r.body), where);
    else if (row.method === 'getRequestArchive') assert.ok(r.body.id === submitted.body.id && ['Pending', 'Success'].includes(r.body.status), where);
    else if (row.async) assert.ok(r.status === 202 && r.body.status === 'Pending' && r.body.id && r.body.results_location, where);
    else if (row.post) assert.ok(Array.isArray(r.body.items) && 'next_cursor' in r.body && typeof r.body.has_more === 'boolean' && !('data' in r.body), where);
    else if (row.method === 'businessesGet') assert.equal(r.body.name, 'Node client cafe', where);
    else assert.ok(r.status === 200 && Array.isArray(r.body.data) && r.body.data.length === 1, where);
    // Declared parameters the client sends are read; only what trawl has no use for is named as unknown.
    if (row.method === 'googleMapsReviews') assert.equal(r.unknown, 'source', where);
    else assert.equal(r.unknown, null, where);
  }
  // The archive of the async search ends with its data, as the client's user polls it.
  const done = await until(async () => { const r = await call(ROWS[1], `/requests/${submitted.body.id}`, a.key); return r.body.status === 'Success' ? r : null; }, 10_000, 'search done');
  assert.equal(done.body.data[0].length, 2);
});

test('docs/clients.md has the same table: method, path, works unchanged', () => {
  const doc = readFileSync(new URL('../docs/clients.md', import.meta.url), 'utf8');
  const table = new Map([...doc.matchAll(/^\| `(\w+)` \| `(?:GET|POST) ([^`]+)` \| (yes|no) \|/gm)].map((m) => [m[1], { path: m[2], works: m[3] === 'yes' }]));
  assert.deepEqual([...table.keys()].sort(), ROWS.map((r) => r.method).sort());
  for (const row of ROWS) assert.deepEqual(table.get(row.method), { path: row.path.replace('{business}', '{id}'), works: row.works }, row.method);
  const yes = ROWS.filter((r) => r.works).length;
  assert.match(doc, new RegExp(`${yes} of its 38 methods work unchanged`));
});
