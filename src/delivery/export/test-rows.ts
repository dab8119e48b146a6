/**
 * Constructed rows for the export tests and the benchmark (no fixture data: every value is made up
 * here, deterministically, to hit the hard cases — quoting, line ends, unicode, nesting, nulls).
 */
import type { Row } from './values.ts';

/** Small deterministic PRNG (mulberry32), so a failing row can be reproduced by its index. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NASTY = [
  'plain',
  'comma, inside',
  'quote " inside',
  '"starts and ends with quotes"',
  'new\nline',
  'crlf\r\nline',
  'lone\rcr',
  '  padded  ',
  '',
  'Zoë Café – naïve',
  '東京都渋谷区',
  'مرحبا بالعالم',
  '👩‍💻 emoji 🍕',
  'tab\there',
  '00123',
  '1e5',
  'true',
  'null',
  '-',
  '=SUM(A1)',
  '[closed]',
  '{not json}',
  'back\\slash',
  '_x0041_ literal',
  'ctrl\u0001char',
];

/**
 * One row with every kind of value; some keys are missing or undefined on some rows so column
 * union and null handling are exercised.
 */
export function trickyRow(i: number): Row {
  const r = prng(i + 1);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const row: Row = {
    id: i,
    name: `${pick(NASTY)} #${i}`,
    note: pick(NASTY),
    rating: r() < 0.2 ? null : Math.round(r() * 50) / 10,
    reviews: Math.floor(r() * 100000),
    score: r() < 0.5 ? r() * 1e-7 : -r() * 1e21,
    verified: r() < 0.5,
    working_hours: r() < 0.3 ? null : { Monday: '9AM–5PM', Tuesday: pick(NASTY), closed: r() < 0.5 },
    tags: r() < 0.3 ? [] : [pick(NASTY), Math.floor(r() * 10), null, { deep: [true] }],
    updated: new Date(Date.UTC(2020, 0, 1) + Math.floor(r() * 1e11)),
  };
  if (r() < 0.5) row.optional = pick(NASTY);
  if (r() < 0.1) row.undef = undefined;
  return row;
}

/** A place-like record of about 1 KB, the shape the maps endpoints return (for the benchmark). */
export function placeRow(i: number): Row {
  return {
    query: 'restaurants, Manhattan, NY, USA',
    name: `Restaurant ${i}`,
    google_id: `0x89c259${(i * 7919).toString(16).padStart(8, '0')}:0x${(i * 104729).toString(16)}`,
    place_id: `ChIJ${(i * 2654435761 >>> 0).toString(36)}rZ${i}`,
    full_address: `${100 + (i % 900)} W ${1 + (i % 200)}th St, New York, NY 100${(i % 90) + 10}`,
    street: `${100 + (i % 900)} W ${1 + (i % 200)}th St`,
    city: 'New York',
    postal_code: `100${(i % 90) + 10}`,
    state: 'New York',
    country_code: 'US',
    latitude: 40.7 + (i % 1000) / 10000,
    longitude: -74 + (i % 1000) / 10000,
    phone: `+1 212-555-${String(i % 10000).padStart(4, '0')}`,
    site: `https://restaurant${i}.example.com/`,
    type: 'Restaurant',
    subtypes: 'Restaurant, Italian restaurant, Pizza restaurant',
    rating: 3 + (i % 20) / 10,
    reviews: (i * 37) % 5000,
    photos_count: (i * 13) % 800,
    price_range: '$$',
    verified: i % 3 !== 0,
    business_status: 'OPERATIONAL',
    description: i % 4 === 0 ? null : 'Cozy spot serving wood-fired pizza, pasta & wine, with a "secret" garden.',
    working_hours: {
      Monday: '11AM-10PM',
      Tuesday: '11AM-10PM',
      Wednesday: '11AM-10PM',
      Thursday: '11AM-11PM',
      Friday: '11AM-12AM',
      Saturday: '10AM-12AM',
      Sunday: 'Closed',
    },
    about: { Service_options: { Dine_in: true, Takeout: true, Delivery: i % 2 === 0 }, Accessibility: { Wheelchair_accessible_entrance: true } },
    location_link: `https://www.google.com/maps/place/Restaurant+${i}/@40.7,-74,14z`,
    reviews_per_score: { 1: i % 7, 2: i % 11, 3: i % 13, 4: i % 17, 5: i % 19 },
  };
}
