/**
 * The business database on SQLite (issue 13): generated businesses, then the searches the issue times.
 *
 *   node bin/run-ts.js bench/businesses.bench.ts [--rows 1000000]
 *
 * Rows come from a seeded generator (realistic names from a word list, five countries, points spread
 * around a few cities each, ratings, reviews, types), upserted in batches of 1,000 into a fresh file.
 * Each search runs 50 times after a warm-up; medians are quoted against a baseline measured in the same
 * run (a page of 10 by os_id, the cheapest read) because the box is shared and noisy.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../src/store/sqlite/store.ts';
import { businessStoreOf } from '../src/store/businesses/index.ts';
import { business } from '../src/store/businesses/conformance.ts';
import type { BusinessQuery, BusinessRecord } from '../src/store/businesses/contract.ts';
import { median } from './lib.ts';

const at = process.argv.indexOf('--rows');
const ROWS = at > 0 ? Number(process.argv[at + 1]) : 1_000_000;
let seed = 42;
const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
const CITIES: [string, string, string, number, number][] = [
  ['US', 'Texas', 'Austin', 30.2672, -97.7431], ['US', 'New York', 'New York', 40.7128, -74.006], ['US', 'California', 'San Francisco', 37.7749, -122.4194],
  ['FR', 'Île-de-France', 'Paris', 48.8566, 2.3522], ['FR', 'Auvergne-Rhône-Alpes', 'Lyon', 45.764, 4.8357], ['DE', 'Berlin', 'Berlin', 52.52, 13.405],
  ['GB', 'England', 'London', 51.5074, -0.1278], ['ES', 'Madrid', 'Madrid', 40.4168, -3.7038],
];
const TYPES = ['Restaurant', 'Cafe', 'Coffee shop', 'Bakery', 'Dentist', 'Hair salon', 'Pharmacy', 'Bar', 'Hotel', 'Gym', 'Supermarket', 'Bookstore'];
const WORDS = ['Golden', 'Blue', 'Corner', 'Royal', 'Little', 'Green', 'Urban', 'Old Town', 'Sunny', 'Central', 'Happy', 'River'];

function generated(i: number): BusinessRecord {
  const [cc, state, city, lat, lng] = pick(CITIES);
  const t = pick(TYPES);
  return business(`bench-${i}`, {
    name: `${pick(WORDS)} ${pick(WORDS)} ${t}`, country_code: cc, state, city, postal_code: String(10000 + Math.floor(rnd() * 90000)),
    latitude: lat + (rnd() - 0.5) * 0.3, longitude: lng + (rnd() - 0.5) * 0.4, rating: Math.round((1 + rnd() * 4) * 10) / 10,
    reviews: Math.floor(rnd() ** 3 * 5000), types: rnd() < 0.3 ? [t, pick(TYPES)] : [t], site: rnd() < 0.6 ? `https://b${i}.example` : null,
    phone: rnd() < 0.8 ? `+1 512 555 ${String(i % 10000).padStart(4, '0')}` : null, business_status: 'operational',
  });
}

const dir = mkdtempSync(join(tmpdir(), 'trawl-biz-bench-'));
const file = join(dir, 'bench.db');
const s = await openSqliteStore(file);
try {
  const db = businessStoreOf(s);
  const t0 = performance.now();
  for (let i = 0; i < ROWS; i += 1000) {
    await db.upsertBusinesses('acct', Array.from({ length: Math.min(1000, ROWS - i) }, (_, k) => generated(i + k)), 1_000_000);
  }
  const insertS = (performance.now() - t0) / 1000;
  const time = async (q: Partial<BusinessQuery>, runs = 50) => {
    const one = async () => { const t = performance.now(); await db.searchBusinesses({ accountId: 'acct', limit: 10, ...q }); return performance.now() - t; };
    await one();
    const ms: number[] = [];
    for (let i = 0; i < runs; i++) ms.push(await one());
    return median(ms);
  };
  const base = await time({});
  const rows: [string, number][] = [
    ['page of 10, no filter (baseline)', base],
    ['country_code + types + rating 4.5+', await time({ countryCode: 'US', types: ['cafe'], rating: { min: 4.5 } })],
    ['2 km circle (Austin)', await time({ geo: [{ type: 'circle', lat: 30.2672, lng: -97.7431, radius_m: 2000 }] })],
    ['name contains "golden"', await time({ name: 'golden' })],
    ['include_total (country + types + rating)', await time({ countryCode: 'US', types: ['cafe'], rating: { min: 4.5 }, includeTotal: true }, 10)],
  ];
  process.stdout.write(`rows ${ROWS}; insert ${(ROWS / insertS).toFixed(0)} rows/s; file ${(statSync(file).size / 1e6).toFixed(0)} MB (+ WAL)\n\n| search | p50 ms | vs baseline |\n|---|---|---|\n`);
  for (const [name, ms] of rows) process.stdout.write(`| ${name} | ${ms.toFixed(2)} | ${(ms / base).toFixed(1)}x |\n`);
} finally {
  await s.close();
  rmSync(dir, { recursive: true, force: true });
}
