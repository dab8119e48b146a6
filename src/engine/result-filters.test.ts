import { test } from 'node:test';
import assert from 'node:assert/strict';
import { filterProblem, passesFilters, type ResultFilter } from './result-filters.ts';
import { FILTER_OPERATORS } from '../contract/result-filters.ts';

const places = [
  { name: 'A', rating: 4.8, reviews: 120, site: 'https://a.example', business_status: 'OPERATIONAL', subtypes: 'Dentist, Dental clinic', about: { Accessibility: { ramp: true } } },
  { name: 'B', rating: 3.9, reviews: 8, site: null, business_status: 'CLOSED_PERMANENTLY', subtypes: 'Orthodontist', about: {} },
  { name: 'C', rating: null, reviews: 0, site: '', business_status: 'OPERATIONAL', subtypes: null, reviews_tags: ['price', 'staff'] },
  { name: 'D', rating: '4.1', reviews: 40, site: 'http://d.example/x', business_status: 'CLOSED_TEMPORARILY', subtypes: 'Dental clinic' },
];
const kept = (f: ResultFilter) => places.filter(passesFilters([f])).map((p) => p.name).join('');

// One case per operator: which of A-D it keeps. A test below checks the table covers every operator.
const cases: [ResultFilter, string][] = [
  [{ key: 'business_status', operator: 'equals', value: ['operational'] }, 'AC'],
  [{ key: 'business_status', operator: 'equals', value: ['operational', 'closed_temporarily'] }, 'ACD'],
  [{ key: 'rating', operator: 'equals', value: 4.8 }, 'A'],
  [{ key: 'business_status', operator: 'not equals', value: 'operational' }, 'BD'],
  [{ key: 'subtypes', operator: 'contains', value: 'DENTAL' }, 'AD'],
  [{ key: 'subtypes', operator: 'not contains', value: 'dental' }, 'BC'],
  [{ key: 'site', operator: 'starts with', value: 'https://' }, 'A'],
  [{ key: 'site', operator: 'ends with', value: '/x' }, 'D'],
  [{ key: 'rating', operator: 'greater than', value: 4.1 }, 'A'],
  [{ key: 'rating', operator: 'greater than or equals', value: 4.1 }, 'AD'],
  [{ key: 'reviews', operator: 'less than', value: '40' }, 'BC'],
  [{ key: 'reviews', operator: 'less than or equals', value: 40 }, 'BCD'],
  [{ key: 'site', operator: 'is blank', value: null }, 'BC'],
  [{ key: 'site', operator: 'is not blank', value: null }, 'AD'],
];

test('every filter operator keeps exactly the places it names', () => {
  for (const [f, want] of cases) assert.equal(kept(f), want, `${f.key} ${f.operator} ${JSON.stringify(f.value)}`);
  assert.deepEqual([...new Set(cases.map(([f]) => f.operator))].sort(), [...FILTER_OPERATORS].sort(), 'each operator has a case');
});

test('lists, objects and dotted paths: a list passes when one item does; a dotted key reads inside an object', () => {
  assert.equal(kept({ key: 'reviews_tags', operator: 'equals', value: 'staff' }), 'C');
  assert.equal(kept({ key: 'reviews_tags', operator: 'is not blank' }), 'C');
  assert.equal(kept({ key: 'about', operator: 'is blank' }), 'BCD', 'an empty object is blank');
  assert.equal(kept({ key: 'about.Accessibility.ramp', operator: 'equals', value: true }), 'A');
});

test('filters combine with AND; none keeps everything', () => {
  const both = passesFilters([{ key: 'site', operator: 'is not blank', value: null }, { key: 'business_status', operator: 'equals', value: ['operational'] }]);
  assert.deepEqual(places.filter(both).map((p) => p.name), ['A']);
  assert.equal(places.filter(passesFilters([])).length, 4);
});

test('a filter the service cannot read is a problem naming it', () => {
  const isField = (n: string) => ['rating', 'site', 'about', 'business_status'].includes(n);
  const problem = (f: ResultFilter[]) => filterProblem(f, isField);
  assert.equal(problem([{ key: 'rating', operator: 'greater than', value: 4 }, { key: 'about.x', operator: 'is blank' }]), undefined);
  assert.match(problem([{ key: 'site', operator: 'is blank' }, { key: 'ratting', operator: 'equals', value: 4 }])!, /^filters\.1\.key: "ratting" is not a field of the place record/);
  assert.match(problem([{ key: 'rating', operator: 'greater than', value: 'high' }])!, /^filters\.0\.value: operator "greater than" needs a number/);
  assert.match(problem([{ key: 'rating', operator: 'less than', value: [1, 2] }])!, /^filters\.0\.value: .* needs a number/);
  assert.match(problem([{ key: 'site', operator: 'is blank', value: 'x' }])!, /^filters\.0\.value: operator "is blank" takes no value/);
  assert.match(problem([{ key: 'site', operator: 'contains', value: null }])!, /^filters\.0\.value: operator "contains" needs a value/);
  assert.match(problem([{ key: 'site', operator: 'equals', value: [] }])!, /needs a value/);
  assert.match(problem([{ key: 'site', operator: 'contains', value: ['a', 'b'] }])!, /^filters\.0\.value: operator "contains" takes one value, not a list/);
  assert.match(problem([{ key: 'site', operator: 'is not blank', exclusiveGroup: 'site_existence' }, { key: 'site', operator: 'is blank', exclusiveGroup: 'site_existence' }])!,
    /^filters\.1\.exclusiveGroup: filters\.0 and filters\.1 are both in group "site_existence"/);
});
