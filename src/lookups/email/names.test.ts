import { test } from 'node:test';
import assert from 'node:assert/strict';
import { asciiToken, candidates, splitName } from './names.ts';

test('names are normalised to address characters', () => {
  assert.equal(asciiToken('José'), 'jose');
  assert.equal(asciiToken("O'Brien-Müller"), 'obrienmuller');
  assert.equal(asciiToken('Weiß'), 'weiss');
  assert.equal(asciiToken('Łukasz'), 'lukasz');
  assert.equal(asciiToken('Søren'), 'soren');
  assert.equal(asciiToken('Ægir'), 'aegir');
  assert.equal(asciiToken('李'), '');
});

test('first and last names: titles, middle names and "Last, First" handled', () => {
  assert.deepEqual(splitName('Jane Doe'), { first: 'jane', last: 'doe' });
  assert.deepEqual(splitName('Dr. Jane Q. Doe Jr.'), { first: 'jane', last: 'doe' });
  assert.deepEqual(splitName('José María García'), { first: 'jose', last: 'garcia' });
  assert.deepEqual(splitName('Doe, Jane'), { first: 'jane', last: 'doe' });
  assert.deepEqual(splitName('Prince'), { first: 'prince', last: null });
  assert.equal(splitName('李 王'), null);
  assert.equal(splitName('  '), null);
});

test('candidates come in order of prevalence without duplicates', () => {
  const c = candidates({ first: 'john', last: 'smith' });
  assert.deepEqual(
    c.slice(0, 8).map((x) => x.local),
    ['john.smith', 'john', 'jsmith', 'johnsmith', 'john_smith', 'j.smith', 'smith', 'smithj'],
  );
  assert.deepEqual(c.slice(0, 3).map((x) => x.pattern), ['first.last', 'first', 'flast']);
  assert.equal(new Set(c.map((x) => x.local)).size, c.length);
  assert.deepEqual(candidates({ first: 'prince', last: null }), [{ local: 'prince', pattern: 'first' }]);
  // first == last collapses duplicates.
  const same = candidates({ first: 'li', last: 'li' });
  assert.equal(new Set(same.map((x) => x.local)).size, same.length);
});
