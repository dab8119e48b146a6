/**
 * The review-site enrichment on the real captures (../shared/fixtures/trustpilot, SOURCES.md): a
 * place's site is looked up by its registrable domain; the company nodes are put back into a
 * `__NEXT_DATA__` page at test time (nothing copied into the repository).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fixtureMissing, fixturePath } from '../sources/_kit/fixtures.ts';
import type { FetchedResponse, Step } from '../sources/_kit/adapter.ts';
import { reviewsiteProfile } from '../sources/reviewsite/index.ts';
import { enrichRecords } from './index.ts';

const file = fixturePath('trustpilot', 'scrapfly_companies_2023-12.json');
const skip = fixtureMissing(file);
const page = (unit: unknown) => `<!DOCTYPE html><html><head></head><body><div id="__next"></div>
<script id="__NEXT_DATA__" type="application/json">${JSON.stringify({ props: { pageProps: { businessUnit: unit } }, page: '/review/[businessUnit]' })}</script></body></html>`;

test('enrichment: by the place site\'s registrable domain; unknown domain, no site, failures give nulls', { skip }, async () => {
  const companies = JSON.parse(readFileSync(file, 'utf8')) as { companyDetails: unknown }[];
  const asked: string[] = [];
  const fetch = async (s: Step): Promise<FetchedResponse> => {
    asked.push(s.url);
    if (s.url === 'https://www.trustpilot.com/review/bhphotovideo.com') {
      return { status: 200, url: 'https://www.trustpilot.com/review/www.bhphotovideo.com', headers: {}, body: page(companies[0].companyDetails) };
    }
    if (s.url.endsWith('/broken.example')) throw new Error('network down');
    return { status: 404, url: s.url, headers: {}, body: '<html>404</html>' };
  };
  assert.equal((await reviewsiteProfile('https://www.bhphotovideo.com/c/buy', fetch)).reviewsite_reviews, 306224);
  const places: Record<string, unknown>[] = [
    { name: 'B&H', site: 'https://www.bhphotovideo.com/' }, { name: 'x', site: 'http://unknown.example/' },
    { name: 'y', site: null }, { name: 'z', site: 'https://broken.example' },
  ];
  await enrichRecords('/maps/search', places, { enrichment: ['reviewsite_service'] }, {}, fetch);
  assert.equal(places[0].reviewsite_rating, 4.9);
  assert.deepEqual(places[0].reviewsite_categories, ['Photo Shop', 'Electronics Store']);
  for (const p of places.slice(1)) assert.deepEqual([p.reviewsite_rating, p.reviewsite_reviews, p.reviewsite_link, p.reviewsite_categories], [null, null, null, null]);
  assert.ok(!asked.some((u) => u.includes('null')), 'no lookup for a place without site');
});
