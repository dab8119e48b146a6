/**
 * A loopback map site with a fake calendar (test support for monitors, issue 29): places whose state
 * changes day by day, served in the real answer formats the product's adapters read, with the truth
 * of every injected change kept.
 *
 * - Places sit in districts of 60 to 105 (`queries`: one search phrase per district, below the 120 a
 *   view shows, so one search lists a whole district, 20 a page, in a fixed order).
 * - Each place has a name, address, phone, site, category, price range, the week's hours, a status
 *   line, and reviews: an initial count drawn heavy-tailed (most places have tens, a few thousands),
 *   per-score counts, and a daily rate drawn log-normal, so most places get no review on most days
 *   and a few get many (0 to 50 a day). The rating shown is the mean of the scores to one decimal.
 * - `advance()` makes the next day: new reviews (their times inside that day), removed reviews,
 *   phone, hours and site changes, temporary closures and reopenings, permanent closures, new places.
 *   A place with reviews loses some on a share of days (`removals`, per place and day; default
 *   0.002), any of its reviews alike (the newest as likely as the oldest): on `swapShare` of those
 *   days (default half) one is removed and exactly one added, so the count is unchanged (and the
 *   per-score counts too when both have one score); on the others one or two are removed (20 % two),
 *   with the day's new reviews as usual. Every change is logged in `injected`; `truth` holds, per
 *   day, the field-level changes a monitor should report (a field changed twice in one day counts
 *   once, from its value at the day's start to its last), `new_reviews` with the new ids, and one
 *   `removed` per review removed (`before`: its id).
 * - Served: `/search?tbm=map` (the listing), `/maps/place/?q=place_id:` and `/maps?cid=` (place
 *   pages), `/maps/rpc/listugcposts` (reviews, newest first, page tokens). `hits` counts requests by
 *   kind. `oracle(day)` is the least requests that read exactly what changed that day: the listing
 *   pages holding a changed place, ceil(k / 20) reviews pages for a watched place with k new
 *   reviews, and for a place with a review removed the pages down to the deepest one removed (newest
 *   first, one review past its place: that it is missing cannot be seen sooner). `oracle(day,
 *   watched, true)` is a full-check day instead: every watched place read whole (what it costs is
 *   in `wholePages()`).
 *
 * @example
 *   const site = calendarSite({ places: 1000, seed: 1 });
 *   const http = await site.listen();               // onSite(adapter, http.url) points adapters at it
 *   site.advance(); site.truth.filter((t) => t.day === 1)
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { constructedIds, constructedPlacePage, constructedSearchBody, type ConstructedPlace } from '../../src/sources/_maps/constructed-search.ts';
import { constructedPage, type ConstructedReview } from '../../src/sources/maps-reviews/constructed-page.ts';
import { rng } from '../../src/sources/_maps/test-support.ts';
import { POPULAR_TIMES_REVIEWS } from '../../src/sources/_maps/stub.ts';

const DAY_S = 86_400;
const PAGE = 20;
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const OPENINGS = ['7 AM–3 PM', '8 AM–6 PM', '9 AM–5 PM', '10 AM–10 PM', '11 AM–11 PM', 'Open 24 hours', '6:30 AM–2:30 PM', '12–9 PM'];
const CATEGORIES = ['Coffee shop', 'Restaurant', 'Dentist', 'Hardware store', 'Bakery', 'Bar', 'Pharmacy', 'Hair salon'];

/** Field-level change a monitor should report: `new` (a place appeared), `changed`, `new_reviews` (`after`: how many). */
export interface TruthEvent {
  day: number; kind: 'new' | 'changed' | 'new_reviews' | 'removed'; placeId: string; field: string | null; before: unknown; after: unknown;
  /** `new_reviews`: the new reviews' ids. */
  ids?: string[];
}

interface Place {
  i: number;
  district: number;
  name: string;
  address: string;
  phone: string | null;
  site: string | null;
  category: string;
  range: string | null;
  hours: Array<string | null>;
  statusLine: string | null;
  /** Reviews there before the calendar started: their times and scores follow from the index. */
  initial: number;
  initialPerScore: [number, number, number, number, number];
  /** Reviews written since, oldest first. */
  added: ConstructedReview[];
  /** Every review, oldest first, once the place lost one (until then they follow from `initial` and `added`). */
  kept: ConstructedReview[] | null;
  perScore: [number, number, number, number, number];
  rate: number;
  quality: number;
}

export interface CalendarSite {
  /** Unix seconds of day 0's start (the reviews before it are the initial ones). */
  start: number;
  day: number;
  queries: string[];
  /** The places' ids on day 0 (places added later are not in it). */
  placeIds: string[];
  injected: Array<{ day: number; placeId: string; what: string; before: unknown; after: unknown }>;
  truth: TruthEvent[];
  hits: { search: number; place: number; reviews: number };
  advance(): void;
  /** `watched`: the places whose reviews are monitored (default: all); `whole`: a full-check day. */
  oracle(day: number, watched?: Set<string>, whole?: boolean): { listing: number; reviews: number };
  /** Reviews pages that read every watched place whole now (at least one a place). */
  wholePages(watched?: Set<string>): number;
  /** What the listing shows of a place (the fields a places monitor compares). */
  shown(placeId: string): Record<string, unknown> | null;
  /** The review count and per-score counts a listing shows (the cheap signal), as one string. */
  counts(placeId: string): string | null;
  serve(url: string): { status: number; body: string; type: string };
  listen(): Promise<{ url: string; close(): Promise<void> }>;
}

function gauss(r: () => number): number {
  return Math.sqrt(-2 * Math.log(r() || 1e-12)) * Math.cos(2 * Math.PI * r());
}

function poisson(r: () => number, lambda: number): number {
  if (lambda > 30) return Math.max(0, Math.round(lambda + Math.sqrt(lambda) * gauss(r)));
  const l = Math.exp(-lambda);
  let k = 0, p = 1;
  for (;;) { p *= r(); if (p <= l) return k; k++; }
}

const ratingOf = (s: number[]) => {
  const n = s.reduce((a, b) => a + b, 0);
  return n ? Math.round((s.reduce((a, c, k) => a + c * (k + 1), 0) / n) * 10) / 10 : null;
};
const weekOf = (hours: Array<string | null>) => Object.fromEntries(DAYS.map((d, k) => [d, hours[k] ?? 'Closed']));
const statusOf = (line: string | null) => (line === 'Permanently closed' ? 'CLOSED_PERMANENTLY' : line === 'Temporarily closed' ? 'CLOSED_TEMPORARILY' : 'OPERATIONAL');

export function calendarSite(o: { places: number; seed?: number; start?: number; newPerDay?: number; removals?: number; swapShare?: number }): CalendarSite {
  const r = rng(o.seed ?? 1);
  const start = o.start ?? 1_767_225_600; // 2026-01-01T00:00:00Z
  const places: Place[] = [];
  const byDistrict: number[][] = [];
  const byPlaceId = new Map<string, Place>();
  const byEngine = new Map<string, Place>();

  const score = (quality: number) => Math.min(5, Math.max(1, Math.round(quality + gauss(r) * 0.9)));
  const phoneOf = () => `+1 512-555-${String(Math.floor(r() * 10_000)).padStart(4, '0')}`;
  const hoursOf = () => { const open = OPENINGS[Math.floor(r() * OPENINGS.length)]!; return DAYS.map((_, k) => (k === 6 && r() < 0.4 ? null : open)); };

  function addPlace(district: number, initial: number): Place {
    const i = places.length;
    const quality = 2.5 + r() * 2.5;
    const perScore: [number, number, number, number, number] = [0, 0, 0, 0, 0];
    for (let k = 0; k < initial; k++) perScore[score(quality) - 1]!++;
    const p: Place = {
      i, district, name: `Place ${i}`, address: `${100 + i} Main St, District ${district}, Austin, TX 78701`, phone: r() < 0.9 ? phoneOf() : null,
      site: r() < 0.7 ? `https://place${i}.example.com/` : null, category: CATEGORIES[i % CATEGORIES.length]!, range: r() < 0.5 ? '$'.repeat(1 + Math.floor(r() * 3)) : null,
      hours: hoursOf(), statusLine: null, initial, initialPerScore: [...perScore], added: [], kept: null, perScore,
      // Most places get a review every few weeks; a few get dozens a day (capped at 50).
      rate: Math.min(40, 0.05 * Math.exp(1.6 * gauss(r))), quality,
    };
    places.push(p);
    (byDistrict[district] ??= []).push(i);
    byPlaceId.set(constructedIds(i).placeId, p);
    byEngine.set(constructedIds(i).engineId, p);
    return p;
  }

  const n = o.places;
  let district = 0;
  for (let made = 0; made < n; district++) {
    const size = Math.min(n - made, 60 + Math.floor(r() * 46));
    for (let k = 0; k < size; k++, made++) addPlace(district, r() < 0.05 ? 0 : Math.min(5000, Math.round(40 * Math.exp(1.5 * gauss(r)))));
  }
  const districts = district;
  const removalRate = o.removals ?? 0.002;
  // Removals draw from their own stream: the rest of the world is the same with or without them.
  const rr = rng((o.seed ?? 1) * 7919 + 17);
  const swapShare = o.swapShare ?? 0.5;
  /** Per day, per place with a review removed: how deep (newest first) the reads must go to see it. */
  const removalDepth: Array<Map<string, number>> = [];

  const countOf = (p: Place) => (p.kept ? p.kept.length : p.initial + p.added.length);
  const constructed = (p: Place): ConstructedPlace => {
    const count = countOf(p);
    return {
      i: p.i, lat: 30.2 + (p.i % 1000) / 10_000, lng: -97.7 - Math.floor(p.i / 1000) / 1000, name: p.name, rating: ratingOf(p.perScore), reviews: count,
      perScore: p.perScore, phone: p.phone, site: p.site, category: p.category, address: p.address, range: p.range,
      hours: p.hours.map((h, k) => ({ day: DAYS[k]!, ranges: h })), statusLine: p.statusLine,
      // A busy place's page charts its popular times, as the product's does: without them a page
      // reads as a stub (src/sources/_maps/stub.ts) and is asked again.
      popularTimes: count >= POPULAR_TIMES_REVIEWS,
    };
  };

  /** What a monitor compares of a place, as the listing shows it. */
  const shownOf = (p: Place): Record<string, unknown> => ({
    rating: ratingOf(p.perScore), reviews: countOf(p), phone: p.phone, site: p.site, working_hours: weekOf(p.hours), business_status: statusOf(p.statusLine),
  });

  /** Review `j` of a place, newest first. */
  function reviewAt(p: Place, j: number): ConstructedReview {
    if (p.kept) return p.kept[p.kept.length - 1 - j]!;
    if (j < p.added.length) return p.added[p.added.length - 1 - j]!;
    const k = p.initial - 1 - (j - p.added.length); // initial reviews: k = 0 oldest
    let s = 0, acc = p.initialPerScore[0];
    while (k >= acc && s < 4) acc += p.initialPerScore[++s]!;
    return { id: `r${p.i}_i${k}`, rating: s + 1, ts: start - (p.initial - k) * 3_600 * (1 + (p.i % 7)), text: `Review ${k} of place ${p.i}` };
  }

  const site: CalendarSite = {
    start, day: 0, queries: Array.from({ length: districts }, (_, d) => `district ${d} places`),
    placeIds: places.map((p) => constructedIds(p.i).placeId), injected: [], truth: [], hits: { search: 0, place: 0, reviews: 0 },

    advance() {
      const day = ++site.day;
      const dayStart = start + (day - 1) * DAY_S;
      const before = new Map<Place, Record<string, unknown>>();
      const touch = (p: Place) => { if (!before.has(p)) before.set(p, shownOf(p)); };
      const log = (p: Place, what: string, b: unknown, a: unknown) => site.injected.push({ day, placeId: constructedIds(p.i).placeId, what, before: b, after: a });
      const existing = places.length;
      for (let x = 0; x < existing; x++) {
        const p = places[x]!;
        if (p.statusLine === 'Permanently closed') continue;
        let k = Math.min(50, poisson(r, p.rate));
        const count = countOf(p);
        if (count > 0 && removalRate > 0 && rr() < removalRate) {
          touch(p);
          const swap = rr() < swapShare;
          // A swap: one removed, exactly one added (the count unchanged).
          if (swap) k = 1;
          const n = swap ? 1 : Math.min(count, rr() < 0.2 ? 2 : 1);
          p.kept ??= Array.from({ length: count }, (_, j) => reviewAt(p, count - 1 - j));
          let deepest = 0;
          for (let x = 0; x < n; x++) {
            const at = Math.floor(rr() * p.kept.length); // oldest first
            const [gone] = p.kept.splice(at, 1);
            p.perScore[gone!.rating - 1]!--;
            // Newest first, the reviews above it (today's new ones too) and one past it must be read to see it missing.
            deepest = Math.max(deepest, p.kept.length - at + k + 1);
            log(p, 'removed review', gone!.id, null);
            site.truth.push({ day, kind: 'removed', placeId: constructedIds(p.i).placeId, field: 'reviews_data', before: gone!.id, after: null });
          }
          (removalDepth[day] ??= new Map()).set(constructedIds(p.i).placeId, deepest);
        }
        if (k) {
          touch(p);
          const times = Array.from({ length: k }, () => dayStart + Math.floor(r() * DAY_S)).sort((a, b) => a - b);
          const ids: string[] = [];
          for (const ts of times) {
            const s = score(p.quality);
            const review = { id: `r${p.i}_d${day}_${p.added.length}`, rating: s, ts, text: `New review of place ${p.i}` };
            p.added.push(review);
            p.kept?.push(review);
            ids.push(review.id);
            p.perScore[s - 1]!++;
          }
          log(p, 'reviews', countOf(p) - k, countOf(p));
          site.truth.push({ day, kind: 'new_reviews', placeId: constructedIds(p.i).placeId, field: null, before: null, after: k, ids });
        }
        const u = r();
        if (u < 0.001) { touch(p); const b = p.phone; p.phone = phoneOf(); log(p, 'phone', b, p.phone); }
        else if (u < 0.003) {
          touch(p);
          const b = weekOf(p.hours);
          const open = OPENINGS[Math.floor(r() * OPENINGS.length)]!;
          // Most hours changes move a few days (new weekend hours), some the whole week.
          p.hours = r() < 0.5 ? p.hours.map((h, d) => (d >= 5 ? (r() < 0.3 ? null : open) : h)) : p.hours.map(() => open);
          log(p, 'hours', b, weekOf(p.hours));
        } else if (u < 0.0035) { touch(p); const b = p.site; p.site = `https://new${p.i}-${day}.example.com/`; log(p, 'site', b, p.site); }
        else if (u < 0.004 && p.statusLine === null) { touch(p); p.statusLine = 'Temporarily closed'; log(p, 'closed', null, p.statusLine); }
        else if (u < 0.0042) { touch(p); const b = p.statusLine; p.statusLine = 'Permanently closed'; log(p, 'closed', b, p.statusLine); }
        else if (p.statusLine === 'Temporarily closed' && u > 0.9) { touch(p); p.statusLine = null; log(p, 'reopened', 'Temporarily closed', null); }
      }
      const fresh = o.newPerDay ?? Math.max(1, Math.round(n / 3000));
      for (let k = 0; k < fresh; k++) {
        const d = Math.floor(r() * districts);
        // A district stays under the 120 places one search view shows.
        if (byDistrict[d]!.length >= 110) continue;
        const p = addPlace(d, 0);
        log(p, 'opened', null, p.name);
        site.truth.push({ day, kind: 'new', placeId: constructedIds(p.i).placeId, field: null, before: null, after: null });
      }
      for (const [p, b] of before) {
        const a = shownOf(p);
        for (const f of Object.keys(a)) {
          if (JSON.stringify(a[f]) !== JSON.stringify(b[f])) site.truth.push({ day, kind: 'changed', placeId: constructedIds(p.i).placeId, field: f, before: b[f], after: a[f] });
        }
      }
    },

    oracle(day, watched, whole = false) {
      const changed = new Set(site.truth.filter((t) => t.day === day).map((t) => t.placeId));
      let listing = 0;
      for (const ids of byDistrict) {
        for (let off = 0; off < ids.length; off += PAGE) {
          if (ids.slice(off, off + PAGE).some((i) => changed.has(constructedIds(i).placeId))) listing++;
        }
      }
      // A full-check day reads every watched place whole, which holds whatever else changed in its reviews.
      if (whole) return { listing, reviews: site.wholePages(watched) };
      const pages = new Map<string, number>();
      for (const t of site.truth) {
        if (t.day === day && t.kind === 'new_reviews' && (!watched || watched.has(t.placeId))) pages.set(t.placeId, Math.ceil((t.after as number) / PAGE));
      }
      for (const [id, deepest] of removalDepth[day] ?? []) {
        const p = byPlaceId.get(id)!;
        if (!watched || watched.has(id)) pages.set(id, Math.max(pages.get(id) ?? 0, Math.min(Math.max(1, Math.ceil(countOf(p) / PAGE)), Math.ceil(deepest / PAGE))));
      }
      let reviews = 0;
      for (const n of pages.values()) reviews += n;
      return { listing, reviews };
    },

    wholePages(watched) {
      let n = 0;
      for (const p of places) if (!watched || watched.has(constructedIds(p.i).placeId)) n += Math.max(1, Math.ceil(countOf(p) / PAGE));
      return n;
    },

    shown(placeId) {
      const p = byPlaceId.get(placeId);
      return p ? shownOf(p) : null;
    },

    counts(placeId) {
      const p = byPlaceId.get(placeId);
      return p ? JSON.stringify([countOf(p), p.perScore]) : null;
    },

    serve(url) {
      const u = new URL(url);
      const notFound = { status: 404, body: 'not found', type: 'text/plain' };
      if (u.pathname === '/search') {
        const m = /^district (\d+) places$/.exec(u.searchParams.get('q') ?? '');
        const off = /!8i(\d+)/.exec(u.searchParams.get('pb') ?? '');
        if (!m || !off) return { status: 400, body: 'bad search', type: 'text/plain' };
        site.hits.search++;
        const ids = byDistrict[Number(m[1])] ?? [];
        const shown = ids.slice(Number(off[1]), Number(off[1]) + PAGE).map((i) => constructed(places[i]!));
        return { status: 200, body: constructedSearchBody(u.searchParams.get('q'), shown), type: 'application/json; charset=utf-8' };
      }
      if (u.pathname === '/maps/place/' || u.pathname === '/maps') {
        const q = u.searchParams.get('q') ?? '';
        const cid = u.searchParams.get('cid');
        const p = q.startsWith('place_id:') ? byPlaceId.get(q.slice(9)) : cid ? places[Number(cid)] : undefined;
        if (!p) return notFound;
        site.hits.place++;
        return { status: 200, body: constructedPlacePage(constructed(p)), type: 'text/html; charset=utf-8' };
      }
      if (u.pathname === '/maps/rpc/listugcposts') {
        const pb = u.searchParams.get('pb') ?? '';
        const m = /!1s([^!]+)!.*!2m2!1i(\d+)!2s([^!]*)!/.exec(pb);
        const p = m && byEngine.get(decodeURIComponent(m[1]!));
        if (!m || !p) return notFound;
        site.hits.reviews++;
        const total = countOf(p);
        const from = m[3] ? Number(m[3].slice(1)) : 0;
        const to = Math.min(total, from + Math.min(PAGE, Number(m[2])));
        const page = Array.from({ length: Math.max(0, to - from) }, (_, j) => reviewAt(p, from + j));
        return { status: 200, body: constructedPage(page, to < total ? `o${to}` : null), type: 'application/json; charset=utf-8' };
      }
      return notFound;
    },

    async listen() {
      const server = createServer((req, res) => {
        const out = site.serve(`http://x${req.url ?? '/'}`);
        res.writeHead(out.status, { 'content-type': out.type }).end(out.body);
      });
      await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
      const { port } = server.address() as AddressInfo;
      return { url: `http://127.0.0.1:${port}`, close: () => new Promise((ok) => { server.closeAllConnections(); server.close(() => ok()); }) };
    },
  };
  return site;
}
