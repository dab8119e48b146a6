/**
 * The review-site profile on the real captures (../shared/fixtures/trustpilot, SOURCES.md): the
 * companies file's `companyDetails` are the site's raw `pageProps.businessUnit` nodes; each is put
 * back into a `__NEXT_DATA__` page at test time (nothing copied into the repository).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fixtureMissing, fixturePath } from '../_kit/fixtures.ts';
import { parseCapture } from './index.ts';

const file = fixturePath('trustpilot', 'scrapfly_companies_2023-12.json');
const skip = fixtureMissing(file);
const page = (unit: unknown) => `<!DOCTYPE html><html><head></head><body><div id="__next"></div>
<script id="__NEXT_DATA__" type="application/json">${JSON.stringify({ props: { pageProps: { businessUnit: unit } }, page: '/review/[businessUnit]' })}</script></body></html>`;

test('company pages from the real businessUnit nodes, field by field', { skip }, () => {
  const companies = JSON.parse(readFileSync(file, 'utf8')) as { companyDetails: unknown }[];
  const [bh, iggm, flash] = companies.map((c) => parseCapture(page(c.companyDetails))[0]);
  assert.deepEqual(bh, {
    reviewsite_rating: 4.9, reviewsite_reviews: 306224, reviewsite_link: 'https://www.trustpilot.com/review/www.bhphotovideo.com',
    reviewsite_categories: ['Photo Shop', 'Electronics Store'],
  });
  assert.deepEqual([iggm.reviewsite_rating, iggm.reviewsite_reviews, iggm.reviewsite_link, iggm.reviewsite_categories?.[0]],
    [4.9, 27721, 'https://www.trustpilot.com/review/iggm.com', 'Gaming service Provider']);
  assert.deepEqual([flash.reviewsite_rating, flash.reviewsite_reviews, flash.reviewsite_link], [5, 18602, 'https://www.trustpilot.com/review/www.flashbay.com']);
  // The same node bare and as a __NEXT_DATA__ object.
  assert.deepEqual(parseCapture(JSON.stringify(companies[0].companyDetails)), [bh]);
  assert.throws(() => parseCapture('<html><body>Not found</body></html>'), /no company/);
});
