import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gazetteer, placeAt, type City } from './gazetteer.ts';

const at = (q: string, i = 0) => placeAt(gazetteer(), q.split(' '), i);
const city = (q: string) => at(q)?.place as City;

test('a city is its most populous namesake unless a state or country follows', () => {
  assert.deepEqual([city('austin').name, city('austin').country, city('austin').state], ['Austin', 'US', 'Texas']);
  assert.equal(city('lyon').country, 'FR');
  assert.equal(city('paris').country, 'FR');
  const tx = at('paris tx');
  assert.deepEqual([(tx?.place as City).country, (tx?.place as City).state, tx?.words], ['US', 'Texas', 2]);
  assert.deepEqual([(at('paris texas')?.place as City).stateCode, at('paris texas')?.words], ['TX', 2]);
  assert.equal((at('london canada')?.place as City).country, 'CA');
  assert.equal(at('saint etienne')?.words, 2);
  assert.equal(city('new york').country, 'US', 'a large city over the state of its name');
});

test('states by name or code, countries by name or alias; a bare state code is not a place', () => {
  assert.deepEqual(at('texas')?.place, { kind: 'state', name: 'Texas', code: 'TX' });
  assert.deepEqual(at('france')?.place, { kind: 'country', name: 'France', code: 'FR' });
  assert.equal((at('united kingdom')?.place as { code: string }).code, 'GB');
  assert.equal((at('usa')?.place as { code: string }).code, 'US');
  assert.equal(at('tx'), null);
  assert.equal(at('zzyzzx'), null);
});

test('a joining word is not read as a state code between two places', () => {
  assert.equal(at('portland or seattle')?.words, 1);
  assert.equal((at('portland or')?.place as City).stateCode, 'OR');
});
