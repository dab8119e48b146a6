import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { FetchedResponse } from '../_kit/adapter.ts';
import { isSourceError } from '../_kit/errors.ts';
import { adapter as placesByDomain } from './adapter.ts';
import { parseCapture } from './capture.ts';
import { registrableDomain, siteMatches } from './domain.ts';
import { parse, filterByDomain, finish } from './parse.ts';
import { isNoResult, type PlaceRecord, type PlacesByDomainParams } from './record.ts';
import { placeRecordFields } from '../_maps/record.ts';
import { placesByDomain as placesByDomainDecl } from '../../contract/endpoints/maps.ts';
import { parseQueryString, readParams } from '../../contract/params.ts';
import { maxPages } from './plan.ts';
import { fixtureMissing, fixturePath } from '../_kit/fixtures.ts';

const FIX = fixturePath('google-maps');
const skip = fixtureMissing(FIX);
const search = () => readFileSync(resolve(FIX, 'search_tbm-map_coffee_2024-12.json'), 'utf8');
const res = (body: string): FetchedResponse => ({ status: 200, url: 'https://www.google.com/search', headers: {}, body });
const ctx = (query: string, params = {}) => ({ query, params });

test('registrable domain: URLs, subdomains, multi-part and private suffixes, junk', () => {
  assert.equal(registrableDomain('https://www.Shop.Example.co.uk/about?x=1'), 'example.co.uk');
  assert.equal(registrableDomain('example.com'), 'example.com');
  assert.equal(registrableDomain('www.example.com/path'), 'example.com');
  assert.equal(registrableDomain('shop.myshopify.com'), 'shop.myshopify.com');
  assert.equal(registrableDomain('127.0.0.1'), null);
  assert.equal(registrableDomain('co.uk'), null);
  assert.equal(registrableDomain('not a domain'), null);
  assert.equal(registrableDomain(''), null);
  assert.ok(siteMatches('http://blog.example.com/', 'example.com'));
  assert.ok(!siteMatches('https://example.com.evil.io/', 'example.com'));
  assert.ok(!siteMatches('https://notexample.com/', 'example.com'));
  assert.ok(!siteMatches(null, 'example.com'));
});

test('constructed records: only places on the domain are kept', () => {
  const recs = [
    { name: 'a', site: 'https://www.example.com/menu', place_id: '1' },
    { name: 'b', site: 'https://book.example.com', place_id: '2' },
    { name: 'c', site: 'https://example.org', place_id: '3' },
    { name: 'd', site: null, place_id: '4' },
    { name: 'e', site: 'https://facebook.com/example.com', place_id: '5' },
  ];
  assert.deepEqual(filterByDomain(recs, 'example.com').map((r) => r.name), ['a', 'b']);
});

test('plan: the registrable domain is the map search phrase; bad queries are refused', () => {
  const [step] = placesByDomain.plan(ctx('https://www.coffeeisland.gr/shops', { region: 'gr' }));
  assert.equal(step.kind, 'search');
  assert.match(step.url, /^https:\/\/www\.google\.com\/search\?tbm=map&authuser=0&hl=en&gl=GR&q=coffeeisland\.gr&pb=/);
  assert.equal((step.state as any).domain, 'coffeeisland.gr');
  assert.equal(placesByDomain.checkQuery!('no domain here'), 'query "no domain here" is not a domain or website URL');
  assert.equal(placesByDomain.checkQuery!('example.com'), undefined);
  assert.throws(() => placesByDomain.plan(ctx('???')), (e) => isSourceError(e) && e.type === 'invalid_query');
});

test('plan: the declared parameters as the reader gives them (region upper-cased, language) reach the search', () => {
  const params = readParams(placesByDomainDecl.params, parseQueryString('region=gr&language=el&perQuery=5')) as PlacesByDomainParams;
  const [step] = placesByDomain.plan(ctx('coffeeisland.gr', params));
  assert.match(step.url, /[?&]hl=el&gl=GR&q=coffeeisland\.gr&/);
});

test('real search page: filter by domain, ask the next page, stop on a matchless page', { skip }, () => {
  const c = ctx('coffeeisland.gr');
  const [s0] = placesByDomain.plan(c);
  const o0 = parse(s0, res(search()), c);
  assert.equal(o0.records.length, 1);
  assert.match(String(o0.records[0].site), /^https:\/\/www\.coffeeisland\.gr\//);
  assert.equal(o0.records[0].query, 'coffeeisland.gr');
  assert.equal(typeof o0.records[0].name, 'string');
  assert.equal(o0.next!.length, 1);
  assert.equal((o0.next![0].state as any).offset, 20);
  assert.equal((o0.next![0].state as any).kept, 1);
  // Page 2 (same body, no new domain match beyond the one) keeps paging only while it matches.
  const other = ctx('nowhere-to-be-found.example');
  const [n0] = placesByDomain.plan(other);
  const p0 = parse(n0, res(search()), other);
  assert.equal(p0.records.length, 0);
  assert.equal(p0.next!.length, 1, 'the first page may be followed even without a match');
  const p1 = parse(p0.next![0], res(search()), other);
  assert.deepEqual(p1.next, [], 'a second page without a match stops');
  assert.deepEqual(finish([...p0.records, ...p1.records], other), [{ query: 'nowhere-to-be-found.example', no_result: true }]);
  // perQuery reached: no next page.
  const one = ctx('coffeeisland.gr', { perQuery: 1 });
  assert.deepEqual(parse(placesByDomain.plan(one)[0], res(search()), one).next, []);
  assert.equal(parseCapture(search(), 'instagram.com').length, 1);
  assert.equal(parseCapture(search()).length, 20);
});

test('finish: dedupes by place id, caps at perQuery, marks an empty query', () => {
  const c = ctx('a.com', { perQuery: 2 });
  const blank = Object.fromEntries(placeRecordFields.map((f) => [f, null])) as unknown as PlaceRecord;
  const r = (id: string): PlaceRecord => ({ ...blank, site: 'https://a.com', place_id: id, query: 'a.com' });
  assert.deepEqual(finish([r('1'), r('1'), r('2'), r('3')], c).map((x: any) => x.place_id), ['1', '2']);
  const none = finish([], c);
  assert.ok(isNoResult(none[0]));
  assert.equal(maxPages(100), 6);
  assert.equal(maxPages(1), 2);
});

test('foreign, truncated and empty bodies: layout_changed or no places, never a crash', { skip }, () => {
  const c = ctx('coffeeisland.gr');
  const [s0] = placesByDomain.plan(c);
  for (const body of ['', '<html>consent</html>', '{"a":1}', search().slice(0, 5000)]) {
    assert.throws(() => parse(s0, res(body), c), (e) => isSourceError(e) && e.type === 'layout_changed');
  }
  assert.deepEqual(parse(s0, res(")]}'\n[[\"coffeeisland.gr\",[]]]"), c).records, []);
  // Entries reordered / damaged: the mapper returns nulls, the filter drops them.
  const data = JSON.parse(search());
  data[0][1].reverse();
  for (const e of data[0][1]) if (Array.isArray(e?.[14])) e[14][7] = 'unexpected';
  assert.deepEqual(parse(s0, res(JSON.stringify(data)), c).records, []);
  assert.throws(() => parseCapture('nope'), /expected a map search answer/);
});

test('an entry whose place does not read: layout_changed when nothing matched, the matches kept otherwise', { skip }, () => {
  const c = ctx('coffeeisland.gr');
  const [s0] = placesByDomain.plan(c);
  const data = JSON.parse(search());
  const at = data[0][1].findIndex((e: any) => JSON.stringify(e?.[14]?.[7] ?? '').includes('coffeeisland.gr'));
  assert.ok(at > 0);
  const wrapped = structuredClone(data);
  wrapped[0][1][at][14] = [wrapped[0][1][at][14]]; // the match's node one level deeper
  const refused = (e: unknown) => isSourceError(e) && e.type === 'layout_changed' && /1 of the page's 20 entries/.test(e.message);
  assert.throws(() => parse(s0, res(JSON.stringify(wrapped)), c), refused);
  assert.throws(() => parseCapture(JSON.stringify(wrapped), 'coffeeisland.gr'), refused);
  const other = structuredClone(data);
  const o = at === 1 ? 2 : 1;
  other[0][1][o][14] = { data: other[0][1][o][14] }; // another place's node: the match still reads
  assert.equal(parse(s0, res(JSON.stringify(other)), c).records.length, 1);
  assert.equal(parseCapture(JSON.stringify(other)).length, 19);
});
