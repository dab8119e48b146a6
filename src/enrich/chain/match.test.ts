import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildBrandIndex, brandIndex } from './brands.ts';
import { matchChain } from './match.ts';
import { nameVariants, normalizeName } from './normalize.ts';

// A constructed NSI excerpt in the dataset's shape (dist/json/nsi.min.json), to pin each rule.
const nsi = {
  nsi: {
    'brands/amenity/cafe': { items: [
      { displayName: 'Bean Co', locationSet: { include: ['gr', 'cy'] }, tags: { brand: 'Bean Co', 'brand:wikidata': 'Q900', name: 'Bean Co' } },
      { displayName: 'Global Brew', locationSet: { include: ['001'], exclude: ['fr'] }, matchNames: ['global brew coffee'], tags: { brand: 'Global Brew', 'brand:wikidata': 'Q901' } },
      { displayName: 'Euro Beans', locationSet: { include: ['150'] }, tags: { brand: 'Euro Beans', 'brand:wikidata': 'Q902' } },
    ] },
    'brands/shop/hardware': { items: [
      { displayName: 'Bean Co', locationSet: { include: ['gr'] }, tags: { brand: 'Bean Co Tools', 'brand:wikidata': 'Q800', name: 'Bean Co' } },
    ] },
    'operators/amenity/cafe': { items: [{ displayName: 'City Council', locationSet: { include: ['gr'] }, tags: { operator: 'City Council' } }] },
  },
};
const ix = buildBrandIndex(nsi as Parameters<typeof buildBrandIndex>[0]);
const place = (name: string, category: string | null, country_code: string | null) => ({ name, category, country_code });

test('normalisation and branch suffixes', () => {
  assert.equal(normalizeName("McDonald's"), 'mcdonalds');
  assert.equal(normalizeName('The Café & Bar'), 'cafe and bar');
  assert.deepEqual(nameVariants('Bean Co - Syntagma'), ['bean co syntagma', 'bean co']);
  assert.deepEqual(nameVariants('Bean Co (Kifisias)'), ['bean co kifisias', 'bean co']);
});

test('name + country + category decide; the category picks between namesakes', () => {
  assert.deepEqual(matchChain(ix, place('Bean Co', 'Coffee shop', 'GR')), { is_chain: true, chain_name: 'Bean Co', chain_wikidata: 'Q900' });
  assert.deepEqual(matchChain(ix, place('BEAN-CO | Athens', 'Cafe', 'GR')), { is_chain: true, chain_name: 'Bean Co', chain_wikidata: 'Q900' });
  assert.deepEqual(matchChain(ix, place('Bean Co', 'Hardware store', 'GR')), { is_chain: true, chain_name: 'Bean Co Tools', chain_wikidata: 'Q800' });
  assert.equal(matchChain(ix, place('Bean Co', 'Coffee shop', 'US')).is_chain, false, 'not in that country');
  assert.equal(matchChain(ix, place('Bean Co', 'Bakery', 'GR')).is_chain, false, 'category does not fit');
  assert.equal(matchChain(ix, place('Bean Corner', 'Cafe', 'GR')).is_chain, false, 'no partial names');
  assert.equal(matchChain(ix, place('City Council', 'Cafe', 'GR')).is_chain, false, 'operators are not brands');
});

test('world brands, exclusions, regions (M49) and missing inputs', () => {
  assert.equal(matchChain(ix, place('Global Brew Coffee', 'Coffee shop', 'JP')).chain_wikidata, 'Q901', 'match names');
  assert.equal(matchChain(ix, place('Global Brew', 'Cafe', 'FR')).is_chain, false, 'excluded country');
  assert.equal(matchChain(ix, place('Euro Beans', 'Cafe', 'DE')).chain_wikidata, 'Q902', 'Germany is in Europe (150)');
  assert.equal(matchChain(ix, place('Euro Beans', 'Cafe', 'BR')).is_chain, false);
  assert.equal(matchChain(ix, place('Global Brew', 'Cafe', null)).is_chain, true, 'no country: worldwide brands only');
  assert.equal(matchChain(ix, place('Bean Co', 'Cafe', null)).is_chain, false);
  assert.deepEqual(matchChain(ix, place('Bean Co', null, 'GR')), { is_chain: null, chain_name: null, chain_wikidata: null });
});

test('the packaged name-suggestion-index: real brands, deterministic', () => {
  const real = brandIndex();
  assert.ok(real.size > 15_000, `brand names indexed: ${real.size}`);
  const a = matchChain(real, place('Starbucks - Syntagma', 'Coffee shop', 'GR'));
  assert.deepEqual(a, { is_chain: true, chain_name: 'Starbucks', chain_wikidata: 'Q37158' });
  assert.deepEqual(matchChain(real, place('Starbucks - Syntagma', 'Coffee shop', 'GR')), a);
  assert.equal(matchChain(real, place("McDonald's", 'Fast food restaurant', 'US')).chain_wikidata, 'Q38076');
  assert.equal(matchChain(real, place('Lidl', 'Supermarket', 'DE')).chain_wikidata, 'Q151954');
  assert.equal(matchChain(real, place('Starbucks', 'Hardware store', 'US')).is_chain, false);
  assert.equal(matchChain(real, place("Bob's Corner Cafe", 'Cafe', 'US')).is_chain, false);
});
