import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_NEAR_M, parseQuery } from './parse.ts';
import { CATEGORY_PHRASES } from './categories.ts';
import { ATTRIBUTE_PHRASES } from './attributes.ts';
import { callOnLookupThread } from '../../lookups/threaded.ts';

const read = (q: string) => parseQuery(q);

test('the three examples of the issue', () => {
  const a = read('coffee shops in austin tx rated 4.5+ with a website');
  assert.deepEqual(a.notUnderstood, []);
  assert.deepEqual(a.filters.cities, ['Austin']);
  assert.deepEqual(a.filters.states, ['Texas', 'TX']);
  assert.equal(a.filters.rating, '4.5+');
  assert.equal(a.filters.has_website, true);
  assert.ok(a.filters.types!.includes('Coffee shop') && a.filters.types!.includes('Cafe'));

  const b = read('dentists near 40.74,-73.98 within 2 km');
  assert.deepEqual(b.notUnderstood, []);
  assert.deepEqual(b.filters.geo_filters, [{ type: 'circle', lat: 40.74, lng: -73.98, radius_m: 2000 }]);
  assert.ok(b.filters.types!.includes('Dentist'));
  assert.equal(b.filters.cities, undefined);

  const c = read('closed restaurants in lyon');
  assert.deepEqual(c.notUnderstood, []);
  assert.deepEqual(c.filters.business_statuses, ['closed_temporarily', 'closed_permanently']);
  assert.deepEqual(c.filters.cities, ['Lyon']);
  assert.ok(c.filters.types!.includes('Restaurant'));
});

test('places: cities by every spelling, states, countries, postal codes, several joined by or', () => {
  assert.deepEqual(read('bakeries in Saint-Étienne').filters.cities, ['Saint-Étienne', 'Saint-Etienne']);
  assert.deepEqual(read('cafes in new york').filters.cities, ['New York City', 'New York']);
  assert.deepEqual(read('pharmacies in texas').filters, { types: ['Pharmacy', 'Drugstore', 'Chemist', 'Pharmacy Counter'], states: ['Texas', 'TX'] });
  assert.deepEqual(read('hotels in france').filters, { types: ['Hotel'], country_code: 'FR' });
  assert.deepEqual(read('bars in lyon france').filters.country_code, 'FR');
  assert.deepEqual(read('pubs in 78701').filters.postal_codes, ['78701']);
  assert.deepEqual(read('gyms in austin or dallas').filters.cities, ['Austin', 'Dallas']);
  assert.deepEqual(read('cafes in paris tx').filters, { types: read('cafes').filters.types, cities: ['Paris'], states: ['Texas', 'TX'] });
});

test('distances: a circle around coordinates or one city; near without a distance is a walk', () => {
  assert.deepEqual(read('bars near 48.85, 2.35').filters.geo_filters, [{ type: 'circle', lat: 48.85, lng: 2.35, radius_m: DEFAULT_NEAR_M }]);
  assert.deepEqual(read('bars within 500 m of 48.85,2.35').filters.geo_filters, [{ type: 'circle', lat: 48.85, lng: 2.35, radius_m: 500 }]);
  const around = read('hotels near lyon within 10 km').filters;
  assert.equal(around.cities, undefined);
  assert.equal(around.geo_filters![0].radius_m, 10_000);
  assert.ok(Math.abs(around.geo_filters![0].lat - 45.75) < 0.1);
  assert.deepEqual(read('bars within 2 km').notUnderstood, ['within', '2', 'km'], 'a distance needs a centre');
  assert.deepEqual(read('bars near 99.1,200.5').notUnderstood, ['99.1,200.5']);
});

test('ratings, reviews, contacts, status, verified, names and domains', () => {
  assert.deepEqual(read('italian restaurants rated above 4 with at least 100 reviews').filters,
    { types: ['Italian restaurant', 'Italian cuisine'], rating: '>4', reviews: '100+' });
  assert.deepEqual(read('plumbers without a phone number').filters, { types: ['Plumber'], has_phone: false });
  assert.deepEqual(read('florists with no website verified').filters, { types: ['Florist'], has_website: false, verified: true });
  assert.deepEqual(read('permanently closed bars').filters.business_statuses, ['closed_permanently']);
  assert.deepEqual(read('open pharmacies').filters.business_statuses, ['operational']);
  assert.deepEqual(read('cafes named "Joe\'s" in austin').filters.name, "joe's");
  assert.deepEqual(read('restaurants called golden dragon in lyon').filters.name, 'golden dragon');
  assert.deepEqual(read('businesses on joescoffee.com').notUnderstood, ['on']);
  assert.equal(read('places with site www.joescoffee.com').filters.domain, 'joescoffee.com');
});

test('words that were not understood are named; small words alone make nothing', () => {
  assert.deepEqual(read('asdf qwer').notUnderstood, ['asdf', 'qwer']);
  assert.deepEqual(read('coffee shops with karaoke in austin').notUnderstood, ['karaoke']);
  const empty = read('show me all the places');
  assert.deepEqual([empty.notUnderstood, empty.filters], [[], {}]);
});

test('phrasings met in trying: a withdrawn country code, a dish alone, `at least` after `and`', () => {
  assert.equal(read('car repair shops in munich germany').filters.country_code, 'DE');
  assert.deepEqual(read('sushi in tokyo').filters, { types: ['Sushi restaurant', 'Sushi cuisine'], cities: ['Tokyo'] });
  const q = read('mexican restaurants in austin, texas with a website and at least 100 reviews');
  assert.deepEqual(q.notUnderstood, []);
  assert.equal(q.filters.reviews, '100+');
  assert.deepEqual(q.filters.states, ['Texas', 'TX']);
  assert.deepEqual(read('cafes in st. louis').filters.cities, ['St. Louis']);
});

test('counties after in: the words before county or parish', () => {
  assert.deepEqual(read('dentists in travis county').filters, { types: read('dentists').filters.types, counties: ['Travis County'] });
  assert.deepEqual(read('bars in orleans parish or travis county').filters.counties, ['Orleans Parish', 'Travis County']);
  assert.deepEqual(read('bars in the county').notUnderstood, ['county'], 'a small word is no county name');
});

test('the same query always reads the same', () => {
  const q = 'top rated vegan restaurants near austin within 3 miles with a website';
  assert.deepEqual(read(q), read(q));
  assert.equal(read(q).filters.rating, '4.5+');
  assert.equal(read(q).filters.geo_filters![0].radius_m, 4828.032);
});

test('attributes: what a place offers, as the attributes filter, beside kinds, places and measures', () => {
  const cafes = read('cafes').filters.types;
  assert.deepEqual(read('cafes in paris with wifi'), { filters: { types: cafes, attributes: ['Wi-Fi'], cities: ['Paris'] }, notUnderstood: [] });
  assert.deepEqual(read('wheelchair accessible restaurants in lyon with outdoor seating rated 4+').filters,
    { types: ['Restaurant', 'Diner'], attributes: ['Wheelchair accessible entrance', 'Outdoor seating'], cities: ['Lyon'], rating: '4+' });
  assert.deepEqual(read('pizza places in austin tx that deliver').filters.attributes, ['Delivery']);
  assert.deepEqual(read('restaurants that accept credit cards and take reservations').filters.attributes, ['Credit cards', 'Accepts reservations']);
  assert.deepEqual(read('dog-friendly cafes with free Wi-Fi and takeaway').filters.attributes, ['Dogs allowed', 'Wi-Fi', 'Takeout']);
  assert.deepEqual(read('drive-thru coffee near 30.27,-97.74').filters.attributes, ['Drive-through']);
  assert.deepEqual(read('shops with in-store pickup in austin').filters, { attributes: ['In-store pickup'], cities: ['Austin'] }, '`in store` is no place');
  assert.deepEqual(read('cafes with wifi and wifi').filters.attributes, ['Wi-Fi'], 'once');
});

test('attributes: a negated one and an unknown word are not understood; phrases do not take each other\'s words', () => {
  assert.deepEqual(read('cafes without wifi').notUnderstood, ['without', 'wifi']);
  assert.deepEqual(read("restaurants that don't deliver").notUnderstood, ["don't", 'deliver']);
  assert.deepEqual(read('restaurants with free parking').notUnderstood, ['free'], 'free parking of which kind is not guessed');
  // A town of that name after a place is the attribute; right after `in` it is the town.
  assert.deepEqual(read('bars in austin terrace').filters, { types: read('bars').filters.types, attributes: ['Outdoor seating'], cities: ['Austin'] });
  assert.deepEqual(read('bars in terrace').filters.cities, ['Terrace']);
  assert.deepEqual(read('bars in lyon home delivery').filters.cities, ['Lyon']);
  for (const p of CATEGORY_PHRASES) {
    const q = read(p);
    assert.ok(q.filters.types && !q.filters.attributes && !q.notUnderstood.length, `category "${p}": ${JSON.stringify(q)}`);
  }
  for (const p of ATTRIBUTE_PHRASES) {
    const q = read(p);
    assert.ok(Object.keys(q.filters).join() === 'attributes' && !q.notUnderstood.length, `attribute "${p}": ${JSON.stringify(q)}`);
  }
});

test('a section of a town (GeoNames PPLX) alone is searched as a circle around it, in its country', () => {
  const q = read('restaurants in monte carlo');
  assert.deepEqual(q.notUnderstood, []);
  assert.equal(q.filters.country_code, 'MC');
  assert.equal(q.filters.cities, undefined, 'addresses there name Monaco, not the quarter');
  const [c] = q.filters.geo_filters!;
  assert.ok(Math.abs(c.lat - 43.7398) < 0.01 && Math.abs(c.lng - 7.4273) < 0.01 && c.radius_m > 500 && c.radius_m < 1000, JSON.stringify(c));
  assert.deepEqual(read('restaurants in monaco').filters.country_code, 'MC', 'a country stays a country');
});

test('on the lookup thread, as POST /businesses calls it: the same reading as on this thread', { timeout: 120_000 }, async () => {
  const q = 'coffee shops in austin tx rated 4.5+ with a website';
  assert.deepEqual(await callOnLookupThread(new URL('./parse.ts', import.meta.url), 'parseQuery', q), parseQuery(q));
});
