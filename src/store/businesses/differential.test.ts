/**
 * SQLite and PostgreSQL answer the same searches alike (issue 13): a seeded set of generated businesses
 * and a seeded set of searches over every filter, points on polygon edges and circle rims included;
 * the matching os_ids and totals must be equal on both stores.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Store } from '../contract.ts';
import { OPEN_DATA, type BusinessQuery, type BusinessRecord, type GeoFilter } from './contract.ts';
import { businessStoreOf } from './index.ts';
import { business } from './conformance.ts';
import { PG_SKIP, openScratchPostgresStore, pgTestUrl } from '../postgres/testing.ts';
import { openSqliteStore } from '../sqlite/store.ts';

const url = pgTestUrl();

/** mulberry32: a small seeded generator, so a failure replays. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TYPES = ['Coffee shop', 'Cafe', 'Restaurant', 'Italian restaurant', 'Park', 'Dentist', 'Shoe store', 'Tourist attraction', 'Bakery'];
const ATTRS = ['Outdoor seating', 'Wheelchair accessible entrance', 'Wi-Fi', 'Dine-in', 'Takeout'];
const CITIES = ['Austin', 'Lyon', 'São Paulo', 'Zürich'];

function records(n: number, r: () => number, prefix = 'd'): BusinessRecord[] {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const some = <T>(xs: readonly T[]) => xs.filter(() => r() < 0.3);
  const out: BusinessRecord[] = [];
  for (let i = 0; i < n; i++) {
    // A coarse grid, so many points sit exactly on the polygon edges and box sides built from it.
    const grid = r() < 0.3;
    out.push(business(`${prefix}${i}`, {
      name: `${pick(['Golden', 'Blue', 'Café', 'Joe\'s', '100%'])} ${pick(['Bean', 'Fork', 'Tooth', 'Shoe'])} ${i}`,
      city: pick(CITIES), state: pick(['Texas', 'TX', null]), country_code: pick(['US', 'FR', 'BR', null]), postal_code: pick(['78701', '69002', null]),
      latitude: grid ? 30 + Math.floor(r() * 5) / 10 : r() < 0.1 ? null : 30 + r() * 0.5,
      longitude: grid ? -97 + Math.floor(r() * 5) / 10 : -97 + r() * 0.5,
      rating: r() < 0.2 ? null : Math.round(r() * 40 + 10) / 10, reviews: r() < 0.2 ? null : Math.floor(r() * 500),
      types: some(TYPES), attributes: some(ATTRS), site: r() < 0.5 ? `https://site${i % 7}.example` : null, phone: r() < 0.5 ? `+1 512 555 ${1000 + i}` : null,
      business_status: pick(['operational', 'closed_temporarily', 'closed_permanently', null] as const), verified: pick([true, false, null]),
      located_os_id: r() < 0.2 ? 'bz_mall' : null,
    }));
  }
  return out;
}

function geo(r: () => number): GeoFilter {
  const k = Math.floor(r() * 3);
  const grid = () => 30 + Math.floor(r() * 6) / 10;
  const gridLng = () => -97 + Math.floor(r() * 6) / 10;
  if (k === 0) return { type: 'circle', lat: grid(), lng: gridLng(), radius_m: Math.floor(r() * 30_000) };
  if (k === 1) {
    const [s, n] = [grid(), grid()].sort();
    const [w, e] = [gridLng(), gridLng()].sort((a, b) => a - b);
    return { type: 'bbox', south: s, north: n, west: w, east: e };
  }
  const m = 3 + Math.floor(r() * 5);
  return { type: 'polygon', points: Array.from({ length: m }, () => [grid(), gridLng()] as [number, number]) };
}

function queries(n: number, r: () => number): Partial<BusinessQuery>[] {
  const maybe = <T>(p: number, v: () => T) => (r() < p ? v() : undefined);
  const out: Partial<BusinessQuery>[] = [];
  for (let i = 0; i < n; i++) {
    const q: Partial<BusinessQuery> = {
      geo: maybe(0.6, () => [geo(r), ...(r() < 0.2 ? [geo(r)] : [])]),
      types: maybe(0.3, () => [TYPES[Math.floor(r() * TYPES.length)].toLowerCase().split(' ').at(-1)!]),
      ignoreTypes: maybe(0.1, () => ['park']),
      attributes: maybe(0.3, () => [ATTRS[Math.floor(r() * ATTRS.length)].toUpperCase()]),
      broadMatch: maybe(0.3, () => true),
      businessOnly: maybe(0.2, () => true),
      locatedIn: maybe(0.1, () => ['bz_mall']),
      rating: maybe(0.3, () => ({ min: Math.round(r() * 50) / 10 })),
      countryCode: maybe(0.3, () => ['US', 'FR', 'BR'][Math.floor(r() * 3)]),
      cities: maybe(0.2, () => [CITIES[Math.floor(r() * CITIES.length)].toLowerCase()]),
      name: maybe(0.15, () => ['café', 'golden', '%', 'e 1'][Math.floor(r() * 4)]),
      hasWebsite: maybe(0.15, () => r() < 0.5),
      businessStatuses: maybe(0.15, () => ['closed_permanently']),
    };
    for (const k of Object.keys(q) as (keyof BusinessQuery)[]) if (q[k] === undefined) delete q[k];
    out.push(q);
  }
  return out;
}

async function answers(s: Store): Promise<unknown[]> {
  const b = businessStoreOf(s);
  await b.upsertBusinesses('a1', records(600, rng(7)), 1_000_000);
  // Open data: half of it shadowed by the account's own rows (the same os_ids), half its alone; and
  // another account's rows, never seen.
  await b.upsertBusinesses(OPEN_DATA, [...records(150, rng(8)), ...records(150, rng(9), 'o')], 1_000_000);
  await b.upsertBusinesses('a2', records(100, rng(10), 'x'), 1_000_000);
  // A re-scrape that moves a third of the account's places to another country and rating: searches by
  // type, country and rating see the new values (PostgreSQL's type rows carry them).
  const moved = records(600, rng(7)).filter((_, i) => i % 3 === 0).map((x, i) => ({ ...x, country_code: ['FR', 'BR', null][i % 3], rating: i % 4 ? 4.9 : null }));
  await b.upsertBusinesses('a1', moved, 2_000_000);
  const out: unknown[] = [];
  for (const q of queries(150, rng(11))) {
    const page = await b.searchBusinesses({ accountId: 'a1', limit: 1000, ...q });
    // A page shorter than the matches, so the total is counted, not read off the page.
    const { total } = await b.searchBusinesses({ accountId: 'a1', limit: 3, includeTotal: true, ...q });
    // The same rows page by page through the cursor, in the one page's order.
    const paged: string[] = [];
    for (let after: string | undefined, more = true; more;) {
      const p = await b.searchBusinesses({ accountId: 'a1', limit: 40, ...q, after });
      paged.push(...p.items.map((x) => x.os_id));
      [after, more] = [p.last, p.hasMore];
    }
    assert.deepEqual(paged, page.items.map((x) => x.os_id), `${s.kind}: pages of ${JSON.stringify(q)}`);
    assert.equal(total, page.items.length, `${s.kind}: total of ${JSON.stringify(q)}`);
    out.push({ q, ids: page.items.map((x) => x.os_id).sort(), total });
  }
  return out;
}

test('business search: the same generated searches give the same answers on SQLite and PostgreSQL', { skip: !url && PG_SKIP }, async () => {
  const lite = await openSqliteStore(':memory:');
  const pg = await openScratchPostgresStore(url!);
  try {
    const [a, b] = [await answers(lite), await answers(pg)];
    // Not a test of nothing: most searches find some rows and some find none.
    const found = a.filter((x) => (x as { total: number }).total > 0).length;
    assert.ok(found > 30 && found < 150, `${found} of 150 searches found rows`);
    for (let i = 0; i < a.length; i++) assert.deepEqual(b[i], a[i], `search ${i}: ${JSON.stringify((a[i] as { q: unknown }).q)}`);
  } finally {
    await lite.close();
    await pg.close();
  }
});
