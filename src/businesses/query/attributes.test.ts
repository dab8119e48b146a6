import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ATTRIBUTE_PHRASES, attributeAt } from './attributes.ts';
import { ATTRIBUTES } from '../attributes.ts';
import { wordsOf } from '../../lookups/words.ts';

const at = (q: string, i = 0) => attributeAt(wordsOf(q), i);

test('phrases: the longest wins, a last word in the plural, hyphens and spellings folded', () => {
  assert.deepEqual(at('free wifi in austin'), { words: 2, attributes: ['Wi-Fi'], negated: false });
  assert.deepEqual(at('Wi-Fi')?.attributes, ['Wi-Fi']);
  assert.deepEqual(at('wheelchair accessible restrooms')?.attributes, ['Wheelchair accessible restroom']);
  assert.deepEqual(at('wheelchair accessible cafes')?.attributes, ['Wheelchair accessible entrance']);
  assert.equal(at('wheelchair accessible cafes')?.words, 2);
  assert.deepEqual(at('drive-thru')?.attributes, ['Drive-through']);
  assert.deepEqual(at('take-away')?.attributes, ['Takeout'], 'both Englishes ask for the name the default scrape carries');
  assert.deepEqual(at('dine-in')?.attributes, ['Dine-in']);
  assert.deepEqual(at('kid-friendly')?.attributes, ['Good for kids']);
  assert.deepEqual(at('LGBTQ+ friendly')?.attributes, ['LGBTQ+ friendly']);
});

test('a leading verb is read with its phrase: accepts credit cards, takes reservations, serves brunch', () => {
  assert.deepEqual(at('accepts credit cards'), { words: 3, attributes: ['Credit cards'], negated: false });
  assert.deepEqual(at('takes reservations')?.attributes, ['Accepts reservations']);
  assert.deepEqual(at('serving brunch')?.attributes, ['Brunch']);
  assert.deepEqual(at('allows dogs')?.attributes, ['Dogs allowed']);
  assert.equal(at('takes'), null, 'a verb alone is nothing');
});

test('negations are answered as negated, never as the attribute; `no smoking` is itself an attribute', () => {
  assert.deepEqual(at('without wifi'), { words: 2, attributes: ['Wi-Fi'], negated: true });
  assert.deepEqual(at("doesn't deliver"), { words: 2, attributes: ['Delivery'], negated: true });
  assert.deepEqual(at('does not take credit cards'), { words: 5, attributes: ['Credit cards'], negated: true });
  assert.deepEqual(at('no outdoor seating')?.negated, true);
  assert.deepEqual(at('no smoking'), { words: 2, attributes: ['No smoking'], negated: false });
  assert.deepEqual(at('no contact delivery'), { words: 3, attributes: ['No-contact delivery'], negated: false });
  assert.equal(at('without a website'), null);
});

test('words that are no attribute answer null; every phrase names a name of the vocabulary', () => {
  for (const q of ['with', 'in', 'pet stores', 'cards', 'free', 'coffee']) assert.equal(at(q), null, q);
  const names = new Set<string>(Object.values(ATTRIBUTES));
  for (const p of ATTRIBUTE_PHRASES) for (const a of at(p)!.attributes) assert.ok(names.has(a), `${p} → ${a}`);
});
