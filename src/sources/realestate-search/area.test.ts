/**
 * Past the page cap: a constructed site (properties scattered in an area; 40 results a page, at most
 * 5 pages and 100 map pins per view, as the real one has 41, 20 and 500) answers the adapter's
 * steps; the adapter splits the map area until `limit` distinct properties or the area is exhausted.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FetchedResponse, Step } from '../_kit/adapter.ts';
import type { Box } from '../_kit/area.ts';
import { adapter } from './adapter.ts';
import type { EstateParams, EstateRecord } from './record.ts';
import { shortBy, type PageTally } from '../_kit/tally.ts';

interface Home { id: number; lat: number; lng: number }
const PAGE = 40, PAGES = 5, PINS = 100;

function lcg(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

function scatter(n: number, b: Box, seed: number, from = 0): Home[] {
  const r = lcg(seed);
  return Array.from({ length: n }, (_, i) => ({ id: from + i + 1, lat: b.s + r() * (b.n - b.s), lng: b.w + r() * (b.e - b.w) }));
}

const node = (h: Home) => ({
  zpid: String(h.id), detailUrl: `/homedetails/x/${h.id}_zpid/`, statusType: 'FOR_SALE', price: `$${h.id * 1000}`, address: `${h.id} Test St`,
  latLong: { latitude: h.lat, longitude: h.lng }, hdpData: { homeInfo: { zpid: h.id, price: h.id * 1000, homeStatus: 'FOR_SALE', currency: 'USD' } },
});

/** The constructed site: the homes inside the asked bounds, ranked by id. */
function serve(homes: Home[], step: Step): FetchedResponse {
  const q = JSON.parse(step.body!).searchQueryState;
  const m = q.mapBounds;
  const inside = homes.filter((h) => h.lat >= m.south && h.lat <= m.north && h.lng >= m.west && h.lng <= m.east);
  const page = q.pagination?.currentPage ?? 1;
  const list = page <= PAGES ? inside.slice((page - 1) * PAGE, page * PAGE) : [];
  const body = { cat1: { searchResults: { listResults: list.map(node), mapResults: inside.slice(0, PINS).map(node) }, searchList: { totalPages: Math.min(PAGES, Math.ceil(inside.length / PAGE)), totalResultCount: inside.length } } };
  return { status: 200, url: step.url, headers: {}, body: JSON.stringify(body) };
}

const AREA: Box = { s: 30.2, w: -97.9, n: 30.4, e: -97.6 };

/** The views the paging check would find short (./parse.ts): ended `end` with fewer read than stated. */
function shortViews(tallies: PageTally[]): string[] {
  const read = new Map<string, number>();
  const out: string[] = [];
  for (const t of tallies) {
    read.set(t.key, (read.get(t.key) ?? 0) + t.read);
    if (t.end === 'end' && t.stated !== undefined && shortBy(t.stated, read.get(t.key)!)) out.push(`${t.key}: ${read.get(t.key)} of ${t.stated}`);
  }
  return out;
}

function run(homes: Home[], params: EstateParams) {
  const full = { mainFilter: 'for_sale' as const, limit: 100, skip: 0, ...params };
  const ctx = { query: `https://www.zillow.com/austin-tx/?searchQueryState=${encodeURIComponent(JSON.stringify({ mapBounds: { west: AREA.w, east: AREA.e, south: AREA.s, north: AREA.n } }))}`, params: full };
  const queue = adapter.plan(ctx);
  const all: EstateRecord[] = [];
  const tallies: PageTally[] = [];
  let requests = 0;
  while (queue.length) {
    const step = queue.shift()!;
    requests++;
    assert.ok(requests < 3000, 'bounded');
    const out = adapter.parse(step, serve(homes, step), ctx);
    all.push(...out.records);
    tallies.push(...(out.tallies ?? []));
    queue.push(...(out.next ?? []));
  }
  return { records: adapter.finish!(all, ctx), requests, short: shortViews(tallies) };
}

test('dense area: splitting reaches limit=1000 distinct properties (one view shows 200)', () => {
  const homes = scatter(5000, AREA, 1);
  const { records, requests } = run(homes, { limit: 1000 });
  assert.equal(records.length, 1000);
  assert.equal(new Set(records.map((r) => r.property_id)).size, 1000);
  assert.ok(requests < 200, `requests ${requests}`);
});

test('clustered area (a dense centre, a sparse rest): limit reached without duplicates', () => {
  const homes = [...scatter(3000, { s: 30.29, w: -97.76, n: 30.31, e: -97.73 }, 2), ...scatter(300, AREA, 3, 3000)];
  const { records } = run(homes, { limit: 2000 });
  assert.equal(records.length, 2000);
  assert.equal(new Set(records.map((r) => r.property_id)).size, 2000);
});

test('the area holds fewer than limit: every property once, the search ends', () => {
  const homes = scatter(1500, AREA, 4);
  const { records } = run(homes, { limit: 5000 });
  assert.equal(records.length, 1500);
  assert.equal(new Set(records.map((r) => r.property_id)).size, 1500);
  // A sparse area fits one view: paged, not split.
  const few = run(scatter(150, AREA, 5), { limit: 1000 });
  assert.equal(few.records.length, 150);
  assert.ok(few.requests <= 4, `requests ${few.requests}`);
});

test('skip: the first `skip` distinct properties are left out, `limit` follow', () => {
  const homes = scatter(5000, AREA, 6);
  const a = run(homes, { limit: 300, skip: 0 }).records.map((r) => r.property_id);
  const b = run(homes, { limit: 100, skip: 150 }).records.map((r) => r.property_id);
  assert.equal(b.length, 100);
  assert.equal(new Set(b).size, 100);
  assert.deepEqual(b.slice(0, 50), a.slice(150, 200));
});

test('never a silent truncation: a split or a paged view reads its count; a cluster denser than the deepest split can show is read short, and says so', () => {
  for (const [homes, limit] of [[scatter(5000, AREA, 1), 1000], [scatter(1500, AREA, 4), 5000], [scatter(150, AREA, 5), 1000]] as const) {
    assert.deepEqual(run(homes, { limit }).short, [], 'a whole read is no shortfall');
  }
  // 600 homes within 50 m: no view there shows more than 5 pages of 40, and the cell cannot be split below MIN_CELL_DEG.
  const block = scatter(600, { s: 30.3, w: -97.75, n: 30.3004, e: -97.7496 }, 7);
  const { records, short } = run([...block, ...scatter(300, AREA, 8, 600)], { limit: 5000 });
  assert.ok(records.length < 900, `read ${records.length}`);
  assert.equal(short.length, 1, short.join('; '));
  assert.match(short[0]!, /^view .*: 200 of 6\d\d$/);
});
