/**
 * Helpers on constructed inputs: ids, links, hours, status, query forms and place steps.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SourceError } from '../_kit/errors.ts';
import { at, num, str } from '../_kit/positional.ts';
import { cidFromEngineId, cidToHex, idsFromEngineId, isCid, isEngineId, isPlaceId, reviewsIdFromCid } from './ids.ts';
import { locationLink, ownerLink, reviewsLink } from './links.ts';
import { oldFormat, otherHours, workingHours } from './hours.ts';
import { businessStatus, verified } from './status.ts';
import { classifyQuery, parseCamera } from './query.ts';
import { placeStep } from './place-step.ts';
import { cleanUrl, countryName, formEncode, unescapeLeftovers, usStateName } from './text.ts';
import { placeFromNode } from './node.ts';
import { asNum, asStr, at1, at2, at3, at4 } from './pos.ts';
import { ODD_VALUES, rng } from './test-support.ts';
import { mapsPlaceAdapter } from './place-adapter.ts';

/** A constructed node: an array with the given slots set. */
function node(slots: Record<number, unknown>): unknown[] {
  const n: unknown[] = [];
  for (const [k, v] of Object.entries(slots)) n[Number(k)] = v;
  return n;
}

test('ids: cid and reviews_id from the feature id (values of the interface example and the capture)', () => {
  assert.equal(cidFromEngineId('0x89c25a4590b8c863:0xc4a4271f166de1e2'), '14169493342088192482');
  assert.equal(reviewsIdFromCid('14169493342088192482'), '-4277250731621359134'); // the interface product's example pair
  assert.equal(reviewsIdFromCid('1613139630906558832'), '1613139630906558832'); // below 2^63: unchanged
  assert.equal(cidFromEngineId('0x0:0x0'), null);
  assert.equal(cidFromEngineId('nope'), null);
  assert.equal(cidFromEngineId(null), null);
  assert.equal(cidToHex('16519582940102929223'), '0xe5415928d6702b47');
  assert.ok(isEngineId('0x14e732fd76f0d90d:0xe5415928d6702b47'));
  assert.ok(!isEngineId('0x14e732fd76f0d90d'));
  assert.ok(isPlaceId('ChIJDdnwdv0y5xQRRytw1ihZQeU'));
  assert.ok(!isPlaceId('ChIJ'));
  assert.ok(isCid('18446744073709551615'));
  assert.ok(!isCid('18446744073709551616'));
});

test('ids: the BigInt-free cid/reviews_id path agrees with the BigInt one at the edges and on random ids', () => {
  const edges = ['0', '1', '00000001', '7fffffff', '80000000', 'ffffffff', '100000000', '1fffffffffffff', '20000000000000',
    '7fffffffffffffff', '8000000000000000', '8000000000000001', 'ffffffff00000000', 'ffffffffffffffff', 'FFFFFFFFFFFFFFFF',
    'ffffffffffffffff0', '', 'g', 'e5415928d6702b47'];
  const ids: Array<string | null> = [null, '', 'nope', '0x1:0x', '0x:0x1', '0x1:1', '0X1:0x1', '0x1:0x1:0x1'];
  for (const h of edges) ids.push(`0x14e732fd76f0d90d:0x${h}`);
  const r = rng(42);
  const hex = (n: number) => Array.from({ length: n }, () => '0123456789abcdefABCDEF'[Math.floor(r() * 22)]).join('');
  for (let i = 0; i < 20_000; i++) ids.push(`0x${hex(1 + (i % 16))}:0x${hex(1 + (i % 17))}`);
  for (const e of ids) {
    const cid = cidFromEngineId(e);
    assert.deepEqual(idsFromEngineId(e), { cid, reviewsId: reviewsIdFromCid(cid) }, String(e));
  }
  assert.deepEqual(idsFromEngineId('0x89c25a4590b8c863:0xc4a4271f166de1e2'), { cid: '14169493342088192482', reviewsId: '-4277250731621359134' });
});

test('pos: the fixed-arity readers answer as the variadic ones', () => {
  const shapes: unknown[] = [...ODD_VALUES, [1, [2, [3, [4, 5]]]], [[[[['x']]]]], [undefined, [undefined]], [[], [[]]], 'abc', [[1.5, NaN, Infinity]]];
  for (const v of shapes) {
    for (let i = 0; i < 3; i++) {
      assert.deepEqual(at1(v, i), at(v, i));
      for (let j = 0; j < 3; j++) {
        assert.deepEqual(at2(v, i, j), at(v, i, j));
        assert.deepEqual(asStr(at2(v, i, j)), str(v, i, j));
        assert.deepEqual(asNum(at2(v, i, j)), num(v, i, j));
        for (let k = 0; k < 3; k++) {
          assert.deepEqual(at3(v, i, j, k), at(v, i, j, k));
          for (let l = 0; l < 3; l++) assert.deepEqual(at4(v, i, j, k, l), at(v, i, j, k, l));
        }
      }
    }
  }
});

test('links: location_link as the product builds it, owner and reviews links', () => {
  assert.equal(
    locationLink("Cremini's", '0x89c25ba11c76be73:0x58dedcecf3822000', 40.6749596, -73.9992896),
    "https://www.google.com/maps/place/Cremini%27s/@40.6749596,-73.9992896,14z/data=!4m8!1m2!2m1!1sCremini%27s!3m4!1s0x89c25ba11c76be73:0x58dedcecf3822000!8m2!3d40.6749596!4d-73.9992896",
  );
  assert.equal(locationLink('A', null, 1, 2), null);
  assert.equal(ownerLink('1'), 'https://www.google.com/maps/contrib/1');
  assert.equal(ownerLink(null), null);
  assert.equal(
    reviewsLink([], 'ChIJY8i4kEVawokR4uFtFh8npMQ', 'restaurants brooklyn usa', { language: 'en', region: 'US' }),
    'https://search.google.com/local/reviews?placeid=ChIJY8i4kEVawokR4uFtFh8npMQ&q=restaurants+brooklyn+usa&authuser=0&hl=en&gl=US',
  );
  assert.equal(reviewsLink([], null, 'x', {}), null);
  assert.equal(formEncode("a b!c'd(e)*"), 'a+b%21c%27d%28e%29%2A');
});

test('text: URL cleaning, leftover escapes, country and US state names', () => {
  assert.equal(cleanUrl('/url?q=https://example.com/a%3Fb&sa=U'), 'https://example.com/a?b');
  assert.equal(cleanUrl('javascript:alert(1)'), null);
  assert.equal(cleanUrl(''), null);
  assert.equal(cleanUrl(5), null);
  assert.equal(cleanUrl('//lh3.googleusercontent.com/x'), 'https://lh3.googleusercontent.com/x');
  assert.equal(unescapeLeftovers('q\\u003d1\\u0026b'), 'q=1&b');
  assert.equal(countryName('GR'), 'Greece');
  assert.equal(countryName('ZZ'), null);
  assert.equal(countryName(null), null);
  assert.equal(usStateName('US', 'NY', null), 'New York');
  assert.equal(usStateName('US', null, '127 Atlantic Ave, Brooklyn, NY 11201'), 'New York');
  assert.equal(usStateName('US', 'New York', null), 'New York');
  assert.equal(usStateName('CY', 'X', null), null);
  assert.equal(usStateName('US', null, 'no state here'), null);
});

test('hours: Monday first, closed days, several ranges, old list when the new one is absent', () => {
  const n = node({
    203: [[
      ['Saturday', 6, [2024, 1, 6], [['9 AM–1 PM', [[9], [13]]], ['5–9 PM', [[17], [21]]]], 0, 1],
      ['Sunday', 7, [2024, 1, 7], [['Closed']], 0, 2],
      ['Monday', 1, [2024, 1, 8], [['Open 24 hours', [[0], [24]]]], 0, 1],
    ]],
  });
  const w = workingHours(n);
  assert.deepEqual(w, { Monday: 'Open 24 hours', Saturday: '9 AM–1 PM,5–9 PM', Sunday: 'Closed' });
  assert.deepEqual(Object.keys(w!), ['Monday', 'Saturday', 'Sunday']);
  assert.equal(oldFormat(w), 'Monday: Open 24 hours | Saturday: 9 AM–1 PM,5–9 PM | Sunday: Closed');
  const old = node({ 34: [null, [['Tuesday', ['8 AM–4 PM'], null, null, '2024-01-09', 1, [[8, 0, 16, 0]], 0], ['Sunday', ['Closed'], null, null, '2024-01-07', 2, null, 0]]] });
  assert.deepEqual(workingHours(old), { Tuesday: '8 AM–4 PM', Sunday: 'Closed' });
  assert.equal(workingHours(node({})), null);
  assert.equal(oldFormat(null), null);
  // A day that does not read (its text emptied, its range slot shifted, no range and not closed): no week, not a guessed `Closed`.
  const open = (ranges: unknown) => node({ 203: [[['Monday', 1, null, [['9 AM–5 PM']], 0, 1], ['Tuesday', 2, null, ranges, 0, 1]]] });
  assert.deepEqual(workingHours(open([['8 AM–4 PM']])), { Monday: '9 AM–5 PM', Tuesday: '8 AM–4 PM' });
  for (const bad of [[['']], [[null, '8 AM–4 PM']], null, []]) assert.equal(workingHours(open(bad)), null, JSON.stringify(bad));
  assert.equal(workingHours(node({ 34: [null, [['Tuesday', [''], null, null, '2024-01-09', 1]]] })), null);
  assert.equal(workingHours(node({ 34: [null, [['Tuesday', [], null, null, '2024-01-09', 1]]] })), null);
  const other = node({ 118: [['Brunch', null, null, [[['Sunday', 7, null, [['10 AM–2 PM', [[10], [14]]]], 0, 1]]]], ['bad'], 'x'] });
  assert.deepEqual(otherHours(other), [{ brunch: { Sunday: '10 AM–2 PM' } }]);
});

test('status: closure lines in a few languages; verified from owner or claim link', () => {
  assert.equal(businessStatus(node({ 34: [null, null, null, null, [null, 1, 1, 0, 'Permanently closed']] })), 'CLOSED_PERMANENTLY');
  assert.equal(businessStatus(node({ 203: [null, [null, null, null, null, ['Temporarily closed']]] })), 'CLOSED_TEMPORARILY');
  assert.equal(businessStatus(node({ 203: [null, [null, null, null, null, ['Vorübergehend geschlossen']]] })), 'CLOSED_TEMPORARILY');
  assert.equal(businessStatus(node({ 34: [null, null, null, null, [null, 1, 1, 0, 'Open ⋅ Closes 8 PM']] })), 'OPERATIONAL');
  assert.equal(businessStatus(node({})), 'OPERATIONAL');
  assert.equal(verified(node({}), '123'), true);
  assert.equal(verified(node({ 49: ['https://business.google.com/create?fp=1', 'Claim this business'] }), null), false);
  assert.equal(verified(node({}), null), null);
});

test('node: owner id from search-result positions; US state; computed plus code', () => {
  const r = placeFromNode(node({
    11: 'Constructed Deli', 10: '0x1:0x2', 9: [null, null, 47.36559, 8.524997], 181: [null, null, null, null, null, '5', '123456789012'],
    183: [null, [null, '1 Main St', '1 Main St', 'New York', '10001', 'NY', 'US']], 13: ['Deli', 'Cafe', 'Deli'],
  }), { query: 'deli nyc' });
  assert.equal(r.owner_id, '123456789012');
  assert.equal(r.verified, true);
  assert.equal(r.us_state, 'New York');
  assert.equal(r.state, 'NY');
  assert.equal(r.country, 'United States');
  assert.equal(r.subtypes, 'Deli, Cafe');
  assert.equal(r.category, 'Deli');
  assert.equal(r.cid, '2');
  assert.equal(r.plus_code, '8FVC9G8F+6X'); // open-location-code's own documented example point
  assert.equal(r.reviews_link, null); // no place_id, no own link
  assert.equal(r.query, 'deli nyc');
});

test('camera strings', () => {
  assert.deepEqual(parseCamera('@40.7,-73.99,13z'), { lat: 40.7, lng: -73.99, zoom: 13 });
  assert.deepEqual(parseCamera('40.7,-73.99'), { lat: 40.7, lng: -73.99, zoom: 14 });
  assert.equal(parseCamera('@91,0,3z'), null);
  assert.equal(parseCamera('@0,181,3z'), null);
  assert.equal(parseCamera('@0,0,30z'), null);
  assert.equal(parseCamera(''), null);
});

test('query forms', () => {
  assert.deepEqual(classifyQuery('  coffee athens '), { form: 'phrase', q: 'coffee athens' });
  assert.deepEqual(classifyQuery('1984'), { form: 'phrase', q: '1984' });
  assert.deepEqual(classifyQuery('ChIJDdnwdv0y5xQRRytw1ihZQeU'), { form: 'place_id', id: 'ChIJDdnwdv0y5xQRRytw1ihZQeU' });
  assert.deepEqual(classifyQuery('16519582940102929223'), { form: 'cid', cid: '16519582940102929223' });
  assert.deepEqual(classifyQuery('0x14E732FD76F0D90D:0xE5415928D6702B47'), { form: 'engine_id', id: '0x14e732fd76f0d90d:0xe5415928d6702b47' });
  assert.deepEqual(classifyQuery('https://www.google.com/maps/place/Kipriakon/data=!4m2!3m1!1s0x14e732fd76f0d90d:0xe5415928d6702b47!10m1!1e1'), { form: 'engine_id', id: '0x14e732fd76f0d90d:0xe5415928d6702b47' });
  assert.deepEqual(classifyQuery('https://www.google.com/maps/place/Empire+State+Building/@40.7484405,-73.9856632,17z'), { form: 'place_url', url: 'https://www.google.com/maps/place/Empire+State+Building/@40.7484405,-73.9856632,17z' });
  assert.deepEqual(classifyQuery('https://www.google.com/maps/search/pizza+in+NYC/@40.7,-73.99,13z'), { form: 'phrase', q: 'pizza in NYC', camera: { lat: 40.7, lng: -73.99, zoom: 13 } });
  assert.deepEqual(classifyQuery('google.com/maps/search/pizza'), { form: 'phrase', q: 'pizza' });
  assert.deepEqual(classifyQuery('https://maps.google.com/maps?z=16&q=Empire+State+Building'), { form: 'phrase', q: 'Empire State Building' });
  assert.deepEqual(classifyQuery('https://maps.google.com/?cid=16519582940102929223'), { form: 'cid', cid: '16519582940102929223' });
  assert.deepEqual(classifyQuery('https://www.google.com/maps/place/?q=place_id:ChIJDdnwdv0y5xQRRytw1ihZQeU'), { form: 'place_id', id: 'ChIJDdnwdv0y5xQRRytw1ihZQeU' });
  assert.deepEqual(classifyQuery('https://www.google.com/maps/search/?api=1&query=cafe&query_place_id=ChIJDdnwdv0y5xQRRytw1ihZQeU'), { form: 'place_id', id: 'ChIJDdnwdv0y5xQRRytw1ihZQeU' });
  assert.deepEqual(classifyQuery('maps.app.goo.gl/abc123'), { form: 'short_url', url: 'https://maps.app.goo.gl/abc123' });
  assert.deepEqual(classifyQuery('https://goo.gl/maps/xyz'), { form: 'short_url', url: 'https://goo.gl/maps/xyz' });
  for (const bad of ['', '   ', 'https://example.com/menu', 'www.yelp.com/biz/x', 'https://www.google.com/search?q=coffee', 'https://goo.gl/abc', 'ftp://google.com/maps', 'https://www.google.com/maps/@40.7,-73.99,13z', 'https://google.evil.com/maps/place/x']) {
    assert.equal(classifyQuery(bad).form, 'invalid', bad);
  }
});

test('place steps: URL forms per id kind; user URLs marked', () => {
  const l = { language: 'el', region: 'CY' };
  assert.deepEqual(placeStep({ form: 'place_id', id: 'ChIJDdnwdv0y5xQRRytw1ihZQeU' }, l), {
    kind: 'place', url: 'https://www.google.com/maps/place/?q=place_id:ChIJDdnwdv0y5xQRRytw1ihZQeU&hl=el&gl=CY', expect: 'html',
  });
  assert.equal(placeStep({ form: 'cid', cid: '16519582940102929223' }, { language: 'en' }).url, 'https://www.google.com/maps?cid=16519582940102929223&hl=en');
  assert.equal(placeStep({ form: 'engine_id', id: '0x14e732fd76f0d90d:0xe5415928d6702b47' }, { language: 'en' }).url, 'https://www.google.com/maps?cid=16519582940102929223&hl=en');
  assert.equal(placeStep({ form: 'engine_id', id: '0x1:0x0' }, { language: 'en' }).url, 'https://www.google.com/maps/place/data=!4m2!3m1!1s0x1:0x0?hl=en');
  const u = placeStep({ form: 'place_url', url: 'https://www.google.com/maps/place/X/@1,2,3z?hl=de' }, l);
  assert.equal(u.userUrl, true);
  assert.equal(u.url, 'https://www.google.com/maps/place/X/@1,2,3z?hl=de&gl=CY');
  const s = placeStep({ form: 'short_url', url: 'https://maps.app.goo.gl/abc' }, l);
  assert.deepEqual(s, { kind: 'resolve', url: 'https://maps.app.goo.gl/abc', expect: 'html', userUrl: true });
  assert.throws(() => placeStep({ form: 'phrase', q: 'x' }, l), (e: unknown) => e instanceof SourceError && e.type === 'invalid_query');
});

test('mapsPlaceAdapter: accepts ids and place URLs only', () => {
  assert.equal(mapsPlaceAdapter.checkQuery!('ChIJDdnwdv0y5xQRRytw1ihZQeU'), undefined);
  assert.match(mapsPlaceAdapter.checkQuery!('coffee')!, /not a place id/);
  assert.match(mapsPlaceAdapter.checkQuery!(' ')!, /empty/);
  assert.equal(mapsPlaceAdapter.plan({ query: '16519582940102929223', params: {} })[0].url, 'https://www.google.com/maps?cid=16519582940102929223&hl=en');
  assert.throws(() => mapsPlaceAdapter.plan({ query: 'coffee', params: {} }), (e: unknown) => e instanceof SourceError && e.type === 'invalid_query');
});

test('about(): attribute and group names that exist on Object.prototype stay own data, never pollute', async () => {
  const { about } = await import('./attributes.ts');
  const yes = [1, [[1]]];
  const node: unknown[] = [];
  node[100] = [null, [
    [null, '__proto__', [[null, 'polluted', yes], [null, 'toString', yes]]],
    [null, 'constructor', [[null, 'name', yes]]],
    [null, 'Service options', [[null, '__proto__', yes], [null, 'Delivery', yes]]],
  ]];
  const out = about(node)!;
  assert.equal(({} as any).polluted, undefined, 'Object.prototype untouched');
  assert.equal(typeof ({} as any).toString, 'function');
  assert.equal((Object as any).name, 'Object', 'built-in constructor untouched');
  assert.deepEqual(Object.keys(out), ['__proto__', 'constructor', 'Service options']);
  assert.equal(Object.getOwnPropertyDescriptor(out, '__proto__')?.value.polluted, true);
  assert.equal(Object.getOwnPropertyDescriptor(out['Service options'], '__proto__')?.value, true);
  assert.equal(JSON.parse(JSON.stringify(out)).constructor.name, true);
});
