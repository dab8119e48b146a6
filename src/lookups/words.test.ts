import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fold, phraseAt, singular, wordsOf } from './words.ts';

test('fold: case, accents, apostrophes and hyphenated names', () => {
  assert.equal(fold('Café de FLORE'), 'cafe de flore');
  assert.equal(fold('Saint-Étienne'), 'saint etienne');
  assert.equal(fold('Joe’s'), "joe's");
});

test('wordsOf keeps coordinate pairs and quoted names whole', () => {
  assert.deepEqual(wordsOf('Dentists near 40.74,-73.98 within 2 km'), ['dentists', 'near', '@40.74|-73.98', 'within', '2', 'km']);
  assert.deepEqual(wordsOf('near (40.74, -73.98)'), ['near', '@40.74|-73.98']);
  assert.deepEqual(wordsOf('rated 4, 5 stars'), ['rated', '4', '5', 'stars'], 'no decimal point: not a coordinate pair');
  assert.deepEqual(wordsOf('cafes named "Joe\'s Coffee" in Austin, TX.'), ['cafes', 'named', '"joe\'s coffee', 'in', 'austin', 'tx']);
  assert.deepEqual(wordsOf('rated 4.5+ with a website!'), ['rated', '4.5+', 'with', 'a', 'website']);
  assert.deepEqual(wordsOf('   '), []);
});

test('singular: the plural forms of the category vocabulary', () => {
  for (const [p, s] of [['dentists', 'dentist'], ['pharmacies', 'pharmacy'], ['churches', 'church'], ['boxes', 'box'], ['shops', 'shop'],
    ['glass', 'glass'], ['bus', 'bus'], ['bar', 'bar'], ['cafes', 'cafe'], ['clothes', 'clothe']] as const) assert.equal(singular(p), s, p);
});

test('phraseAt: the longest phrase at a position, its last word also read as singular', () => {
  const table = new Map([['coffee', 1], ['coffee shop', 2], ['wifi', 3]]);
  assert.deepEqual(phraseAt(table, 2, ['coffee', 'shops', 'in'], 0), { words: 2, value: 2 });
  assert.deepEqual(phraseAt(table, 2, ['coffee', 'in'], 0), { words: 1, value: 1 });
  assert.deepEqual(phraseAt(table, 2, ['with', 'wifi'], 1), { words: 1, value: 3 });
  assert.equal(phraseAt(table, 2, ['with', 'wifi'], 0), null);
  assert.deepEqual(phraseAt(table, 2, ['coffees', 'shop'], 0), { words: 1, value: 1 }, 'only the last word is read as plural');
});
