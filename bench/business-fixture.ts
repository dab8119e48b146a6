/**
 * Generated businesses for the business database benches (issue 13): deterministic (a seeded
 * generator, the same rows on every run and store), made at bench time, never committed as data.
 * Realistic in the ways a search notices: names built from words and the business type, 30 types with
 * a long tail (restaurants common, bookbinders rare), a second type on some, five countries whose
 * points cluster around their cities (dense centres, thin edges), ratings mostly between 3.5 and 5,
 * review counts with a long tail, most with a phone, many with a site, a few closed.
 *
 * @example for (const b of generatedBusinesses(1000)) ...   // the first 1,000 of the sequence
 */
import type { BusinessRecord } from '../src/store/businesses/contract.ts';
import { business } from '../src/store/businesses/conformance.ts';
// The same seeded generator (mulberry32) the parser tests use: the same rows on every machine.
import { rng } from '../src/sources/_maps/test-support.ts';

/** [country, state, city, lat, lng, weight] */
export const CITIES: [string, string, string, number, number, number][] = [
  ['US', 'Texas', 'Austin', 30.2672, -97.7431, 8], ['US', 'New York', 'New York', 40.7128, -74.006, 14], ['US', 'California', 'San Francisco', 37.7749, -122.4194, 8],
  ['US', 'Illinois', 'Chicago', 41.8781, -87.6298, 9], ['US', 'Washington', 'Seattle', 47.6062, -122.3321, 5],
  ['FR', 'Île-de-France', 'Paris', 48.8566, 2.3522, 10], ['FR', 'Auvergne-Rhône-Alpes', 'Lyon', 45.764, 4.8357, 4], ['FR', "Provence-Alpes-Côte d'Azur", 'Marseille', 43.2965, 5.3698, 4],
  ['DE', 'Berlin', 'Berlin', 52.52, 13.405, 8], ['DE', 'Bavaria', 'Munich', 48.1351, 11.582, 5], ['DE', 'Hamburg', 'Hamburg', 53.5511, 9.9937, 4],
  ['GB', 'England', 'London', 51.5074, -0.1278, 11], ['GB', 'England', 'Manchester', 53.4808, -2.2426, 3],
  ['ES', 'Madrid', 'Madrid', 40.4168, -3.7038, 5], ['ES', 'Catalonia', 'Barcelona', 41.3874, 2.1686, 5],
];
/** [type, weight] */
export const TYPES: [string, number][] = [
  ['Restaurant', 20], ['Cafe', 9], ['Coffee shop', 6], ['Bar', 7], ['Bakery', 5], ['Hair salon', 6], ['Dentist', 4], ['Pharmacy', 4], ['Supermarket', 3],
  ['Hotel', 4], ['Gym', 3], ['Bookstore', 2], ['Clothing store', 5], ['Florist', 2], ['Car repair', 3], ['Real estate agency', 3], ['Lawyer', 3],
  ['Accountant', 2], ['Veterinarian', 2], ['Pizza restaurant', 4], ['Sushi restaurant', 2], ['Ice cream shop', 1], ['Butcher shop', 1], ['Optician', 1],
  ['Yoga studio', 1], ['Tattoo shop', 1], ['Plumber', 2], ['Electrician', 2], ['Pet store', 1], ['Bookbinder', 0.1],
];
const WORDS = ['Golden', 'Blue', 'Corner', 'Royal', 'Little', 'Green', 'Urban', 'Old Town', 'Sunny', 'Central', 'Happy', 'River', 'Maple', 'Silver',
  'North', 'Harbor', 'Park', 'Market', 'Bright', 'Union', 'Cedar', 'Lucky', 'Grand', 'Village', 'Station', 'Hill', 'Garden', 'Bridge', 'Oak', 'Star'];
const SURNAMES = ['Smith', 'Garcia', 'Martin', 'Müller', 'Dubois', 'Rossi', 'Johnson', 'López', 'Schmidt', 'Brown', 'Bernard', 'Fernández', 'Weber',
  'Taylor', 'Moreau', 'Wilson', 'Petit', 'Fischer', 'Davies', 'Sánchez', "O'Brien", 'Nguyen', 'Kim', 'Patel', 'Cohen'];

function weighted<T>(xs: T[], weightOf: (x: T) => number): (r: number) => T {
  const total = xs.reduce((s, x) => s + weightOf(x), 0);
  const ends: number[] = [];
  let acc = 0;
  for (const x of xs) ends.push((acc += weightOf(x) / total));
  return (r) => { let i = 0; while (i < ends.length - 1 && r >= ends[i]) i++; return xs[i]; };
}
const cityOf = weighted(CITIES, (c) => c[5]);
const typeOf = weighted(TYPES, (t) => t[1]);

/** The `count` first businesses of the sequence of `seed`. */
export function* generatedBusinesses(count: number, seed = 42): Generator<BusinessRecord> {
  const rnd = rng(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
  // A normal deviate (Box-Muller): points cluster around their city's centre.
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
  for (let i = 0; i < count; i++) {
    const [cc, state, city, lat, lng] = cityOf(rnd());
    const [type] = typeOf(rnd());
    const shape = rnd();
    const name = shape < 0.4 ? `${pick(WORDS)} ${pick(WORDS)} ${type}` : shape < 0.7 ? `${pick(SURNAMES)}'s ${type}` : shape < 0.9 ? `${pick(WORDS)} ${pick(SURNAMES)}` : `${type} ${city} ${i % 1000}`;
    const status = rnd();
    const rated = rnd() < 0.9;
    yield business(`bench-${seed}-${i}`, {
      name, country_code: cc, state, city, postal_code: String(10000 + Math.floor(rnd() * 90000)),
      latitude: Math.round((lat + gauss() * 0.06) * 1e6) / 1e6, longitude: Math.round((lng + (gauss() * 0.06) / Math.cos((lat * Math.PI) / 180)) * 1e6) / 1e6,
      rating: rated ? Math.min(5, Math.max(1, Math.round((4.2 + gauss() * 0.5) * 10) / 10)) : null,
      reviews: rated ? Math.floor(rnd() ** 4 * 8000) + 1 : 0,
      types: rnd() < 0.25 ? [...new Set([type, typeOf(rnd())[0]])] : [type],
      category: type, site: rnd() < 0.6 ? `https://www.b${i}.example.com/` : null, domain: null,
      phone: rnd() < 0.85 ? `+1 555 ${String(100 + (i % 900))} ${String(i % 10000).padStart(4, '0')}` : null,
      full_address: `${1 + (i % 300)} ${pick(WORDS)} Street, ${city}`, street: `${1 + (i % 300)} ${pick(WORDS)} Street`,
      business_status: status < 0.95 ? 'operational' : status < 0.98 ? 'closed_temporarily' : 'closed_permanently',
      verified: rnd() < 0.5, place_id: `ChIJbench${seed}x${i}`,
    });
  }
}
