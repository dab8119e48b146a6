import { test } from 'node:test';
import assert from 'node:assert/strict';
import { categoryAt } from './categories.ts';
import { businessFromOsm } from '../osm-business.ts';

const at = (q: string, i = 0) => categoryAt(q.split(' '), i);

test('the longest phrase wins, its last word read as singular', () => {
  assert.deepEqual(at('coffee shops in austin')?.words, 2);
  assert.equal(at('coffee shops in austin')?.label, 'coffee shop');
  assert.ok(at('coffee shops')!.types.includes('Cafe'), 'OSM spelling beside the map one');
  assert.ok(at('coffee shops')!.types.includes('Coffee shop'));
  assert.deepEqual(at('dentists near')?.types.slice(0, 1), ['Dentist']);
  assert.deepEqual(at('pharmacies')?.types[0], 'Pharmacy');
  assert.deepEqual(at('closed restaurants', 1)?.types, ['Restaurant', 'Diner']);
  assert.equal(at('gas stations')?.words, 2);
});

test('cuisines: <cuisine> restaurants find the map category and the OSM cuisine', () => {
  assert.deepEqual(at('italian restaurants')?.types, ['Italian restaurant', 'Italian cuisine']);
  assert.deepEqual(at('middle eastern food')?.types, ['Middle eastern restaurant', 'Middle eastern cuisine']);
});

test('words that are no category answer null', () => {
  assert.equal(at('with a website'), null);
  assert.equal(at('in'), null);
});

test('the OSM import\'s types (the iD tagging schema\'s preset names) are in the vocabulary of the kind people ask for', () => {
  const asked: [string, Record<string, string>][] = [
    ['cafe', { amenity: 'cafe' }], ['coffee shop', { amenity: 'cafe', cuisine: 'coffee_shop' }], ['restaurant', { amenity: 'restaurant' }],
    ['fast food', { amenity: 'fast_food' }], ['dentist', { amenity: 'dentist', healthcare: 'dentist' }], ['doctor', { amenity: 'doctors' }],
    ['pharmacy', { amenity: 'pharmacy' }], ['hospital', { amenity: 'hospital' }], ['gas station', { amenity: 'fuel' }],
    ['church', { amenity: 'place_of_worship', religion: 'christian' }], ['mosque', { amenity: 'place_of_worship', religion: 'muslim' }],
    ['school', { amenity: 'school' }], ['kindergarten', { amenity: 'kindergarten' }], ['daycare', { amenity: 'childcare' }],
    ['convenience store', { shop: 'convenience' }], ['bookstore', { shop: 'books' }], ['beauty salon', { shop: 'beauty' }],
    ['gym', { leisure: 'fitness_centre' }], ['car repair', { shop: 'car_repair' }], ['car dealer', { shop: 'car' }],
    ['bike shop', { shop: 'bicycle' }], ['lawyer', { office: 'lawyer' }], ['accountant', { office: 'accountant' }],
    ['estate agent', { office: 'estate_agent' }], ['insurance', { office: 'insurance' }], ['phone shop', { shop: 'mobile_phone' }],
    ['diy store', { shop: 'doityourself' }], ['hardware store', { shop: 'hardware' }], ['wine shop', { shop: 'wine' }],
    ['liquor store', { shop: 'alcohol' }], ['tattoo shop', { shop: 'tattoo' }], ['hotel', { tourism: 'hotel' }],
    ['clothing store', { shop: 'clothes' }], ['jewelry store', { shop: 'jewelry' }], ['ice cream', { amenity: 'ice_cream' }],
    ['cinema', { amenity: 'cinema' }], ['theater', { amenity: 'theatre' }], ['nightclub', { amenity: 'nightclub' }],
    ['italian restaurant', { amenity: 'restaurant', cuisine: 'italian' }], ['pizza', { amenity: 'restaurant', cuisine: 'pizza' }],
  ];
  for (const [phrase, tags] of asked) {
    const category = businessFromOsm('node', 1, { name: 'x', ...tags }, 0, 0)!.category!.toLowerCase();
    assert.ok(at(phrase)!.types.some((t) => t.toLowerCase() === category), `${phrase}: ${category}`);
  }
});
