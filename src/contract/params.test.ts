import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseQueryString, readParams, ParamError } from './params.ts';
import { endpointFor } from './endpoints/index.ts';
import { bool, int, list, oneOf, str } from './dsl.ts';
import { MAPS_ENRICHMENTS, FORMATS } from './enums.ts';
import { region } from './shared.ts';

const err = (fn: () => unknown) => { try { fn(); } catch (e) { assert.ok(e instanceof ParamError); return e.message; } assert.fail('no error'); };

test('repeated keys and key[] are one array; query is never split on commas', () => {
  const raw = parseQueryString('query=a%2C%20b&query[]=c&query=d+e');
  assert.deepEqual(readParams({ query: list(str()) }, raw), { query: ['a, b', 'c', 'd e'] });
});

test('enum arrays also take one comma-joined value, and synonyms', () => {
  const decl = { enrichment: list(oneOf(MAPS_ENRICHMENTS)), format: list(oneOf(FORMATS)) };
  const raw = parseQueryString('enrichment=leads_n_contacts,phones_enricher_service&enrichment=directory_phones&format=csv');
  assert.deepEqual(readParams(decl, raw), { enrichment: ['contacts_n_leads', 'phones_enricher_service', 'directory_phones'], format: ['csv'] });
});

test('booleans: true/false/True/False/1/0; anything else names the parameter', () => {
  const decl = { a: bool(), b: bool(), c: bool(), d: bool() };
  assert.deepEqual(readParams(decl, parseQueryString('a=True&b=0&c=FALSE&d=1')), { a: true, b: false, c: false, d: true });
  assert.equal(err(() => readParams({ async: bool() }, parseQueryString('async=yes'))), 'async must be a boolean (true, false, 1 or 0), got "yes"');
});

test('empty values and cutoff=0 mean absent; defaults fill in', () => {
  const decl = { cursor: str(), cutoff: int({ min: 0, zeroIsAbsent: true }), limit: int({ min: 1, max: 500, def: 500 }), fields: str() };
  assert.deepEqual(readParams(decl, parseQueryString('cursor=&cutoff=0&fields=&limit=')), { limit: 500 });
  assert.deepEqual(readParams(decl, parseQueryString('cutoff=1700000000')), { cutoff: 1700000000, limit: 500 });
});

test('integers: the decision 3 message', () => {
  assert.equal(err(() => readParams({ limit: int({ min: 1, max: 500 }) }, parseQueryString('limit=most_relevant'))),
    'limit must be an integer from 1 to 500, got "most_relevant"');
  assert.match(err(() => readParams({ limit: int({ min: 1, max: 500 }) }, parseQueryString('limit=501'))), /from 1 to 500, got "501"/);
  assert.match(err(() => readParams({ limit: int({ min: 1, max: 500 }) }, parseQueryString('limit=99999999999999999999999'))), /limit must be an integer/);
});

test('region is case-insensitive; unknown enum values list what is allowed', () => {
  assert.deepEqual(readParams({ region }, parseQueryString('region=us')), { region: 'US' });
  assert.match(err(() => readParams({ region }, parseQueryString('region=XX'))), /^region must be one of AF, AL, .*got "XX"$/);
});

test('invalid UTF-8 and huge strings are named errors', () => {
  assert.equal(err(() => parseQueryString('query=%FF%FE')), 'parameter query is not valid percent-encoded UTF-8');
  const big = 'x'.repeat(100_000);
  assert.match(err(() => readParams({ webhook: str({ maxLength: 2048 }) }, parseQueryString(`webhook=${big}`))), /^webhook must be at most 2048 characters, got 100000$/);
});

test('required parameters and patterns', () => {
  const e = endpointFor('/videosite-videos')!;
  assert.equal(err(() => readParams(e.params, parseQueryString('limit=5'), e.required)), 'shorts is required');
  const m = endpointFor('/maps/search')!;
  assert.match(err(() => readParams(m.params, parseQueryString('coordinates=40,-73'))), /^coordinates must match .* such as "@40.7128,-74.0060,13z", got "40,-73"$/);
  assert.deepEqual(readParams(m.params, parseQueryString('coordinates=@40.7,-73.9,12z')).coordinates, '@40.7,-73.9,12z');
});
