/**
 * A loopback map site for tests and benches (test support, not a product feature): the real search
 * answer format (constructed-search.ts) over synthetic places.
 *
 * - Places: by default most sit around GeoNames populated places (the cities500 data trawl ships),
 *   each city drawing places in proportion to its population, spread over its radius; `rural` of
 *   them sit anywhere in the field, outside every city. `layout` lays them out otherwise (clustered
 *   around centres unrelated to cities, along roads, uniform, a mix: map-layouts.ts). The field is
 *   the area's box grown 10%, so places outside the area are served too. `places` counts them over
 *   the field; `inside` instead draws until that many lie inside the area (the benches' truth).
 * - A search answers the places in the camera's view (pb altitude, 1024x768, field of view), ranked
 *   by a fixed prominence plus noise (sigma `noise`) drawn anew for every request, at most `cap` a
 *   view (default 120; or a function of the view and of the requests served so far), 20 a page.
 * - `oracle(roots)`: the least requests that find every place of the area, knowing every place: the
 *   quadtree over the same root views that stops where a view shows at most the cap's places (a cap
 *   that changes over time: the lower; with a `margin`, the places around its edges it shows count),
 *   paying ceil(n / 20) pages for a view showing n places and nothing for one without a place of the area. `oracle(roots, { step: 18 })`: the same views paged as the planner pages them
 *   (the floor of its paging: pages 18 apart ended by a short page, an empty view asked once).
 * - Behaviours a real product plausibly has that the benches' cases lack (session 28,
 *   bench/areas-extra.ts): places added at points (`spots`: a mall's hundreds at one point, a tiny dense
 *   area), a ranking that depends on where a place lies in the view or how dense its spot is (`rankBy`),
 *   pages a place short or repeating one (`dropShare`, `repeatShare`), a burst of failures (`burst`).
 * - `serve(url)` answers in process; `listen()` serves the same over HTTP on loopback, and
 *   `onSite(adapter, base)` points the real /maps/search adapter at it (a base-URL override).
 *
 * @example
 *   const site = mapSite({ area: resolveArea('US>Nevada'), places: 100_000, seed: 1 });
 *   const odd = mapSite({ area, places: 5000, layout: 'roads', cap: (v) => (v.request < 300 ? 120 : 100) });
 *   site.serve(step.url).body
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import KDBush from 'kdbush';
import type { Step, WebAdapter } from '../../src/sources/_kit/adapter.ts';
import { constructedSearchBody } from '../../src/sources/_maps/constructed-search.ts';
import { buildPb, readPb } from '../../src/sources/_maps/pb.ts';
import { VIEW_H, VIEW_W, quadrants, type Box } from '../../src/sources/_maps/cells.ts';
import type { Area } from '../../src/lookups/geo/area/resolve.ts';
import { rng } from '../../src/sources/_maps/test-support.ts';
import { gauss, layoutDrawer, type Layout, type LayoutShape, type MixWeights } from './map-layouts.ts';

export { LAYOUTS, type Layout } from './map-layouts.ts';

export const SITE_VIEW_CAP = 120;
export const SITE_PAGE = 20;

export interface MapSite {
  count: number;
  lat: Float64Array;
  lng: Float64Array;
  /** Whether each place lies in the area (the truth recall is measured against). */
  inside: Uint8Array;
  insideCount: number;
  requests: number;
  /** The layout's centres and roads (map-layouts.ts). */
  shape: LayoutShape;
  serve(url: string): { status: number; body: string };
  /** The oracle's requests; with `paged`, the same views paged as the planner pages them (pages
   *  `step` apart, ended by a short page, an empty view asked once): the least any planner that
   *  pages that way pays, knowing where to split. */
  oracle(roots: Box[], paged?: { step: number }): number;
  /** The oracle's views: those holding places of the area (their places' ids), and how many views
   *  without one a planner would still ask once; with `scale`, views held to that share of the cap. */
  oracleViews(roots: Box[], scale?: number): { views: Array<{ box: Box; ids: number[] }>; empty: number };
  /** Each place's fixed prominence and the ranking noise's sigma (bench/areas-bound.ts simulates the
   *  site's rankings with them). */
  prominence: Float32Array;
  noise: number;
  /** Every cell of the oracle's quadtree (bench/areas-attrib.ts): its box, depth, places (all of
   *  the cell's, inside the area or not), and whether it is a leaf with places of the area, an empty
   *  leaf (none of the area's) or split (more than its cap). */
  oracleCells(roots: Box[]): Array<{ box: Box; d: number; n: number; kind: 'leaf' | 'empty' | 'split' }>;
  /** The places a view of the cell `box` shows, as a request for it shows them (its camera, the
   *  margin), unranked and uncapped: bench/areas-estimate.ts counts them (not a request). */
  shownIds(box: Box): number[];
  /** One page of a view as `serve` answers it (the same ranking noise, counted as a request): the
   *  ids of its places, from `offset`, at most `size` (the site's page size when less). */
  pageIds(box: Box, offset: number, size?: number): number[];
  /** Over HTTP on loopback; `hits` counts each URL asked, `delayMs` holds every answer back, and
   *  `pause()` holds every answer until `resume()` (a client stopped where a test wants it,
   *  whatever the box's speed). */
  listen(o?: { delayMs?: number }): Promise<{ url: string; hits: Map<string, number>; pause(): void; resume(): void; close(): Promise<void> }>;
}

/** The view a request shows, as the cap function sees it: its box on the ground, its centre, and how
 *  many requests the site served before this one (so a cap can change during a run). */
export interface SiteView { box: Box; lat: number; lng: number; request: number }

export interface MapSiteOptions {
  area: Area;
  /** How many places to draw over the field; `inside`: draw until this many lie in the area. */
  places?: number;
  inside?: number;
  seed?: number;
  /** Share of places anywhere in the field (every layout but uniform; default 0.15). */
  rural?: number;
  /** Sigma of the Gaussian added to each place's prominence on every request (default 0.02). */
  noise?: number;
  /** Places a view can show (default 120): a number, or one per view (by region, or changing with
   *  `request`). A function should depend on the view's centre: the oracle asks it for its cells. */
  cap?: number | ((view: SiteView) => number);
  /** Places a page holds (default 20), whatever the request asks: the planner must read it from
   *  the answers, not assume it. */
  pageSize?: number;
  /** Share of requests answered 429 or 503 with no body (the executor retries them). */
  fail?: number;
  /** A view shows places this share of its size beyond its edges too (so neighbouring views show
   *  the same places near their border); default 0. */
  margin?: number;
  /** The ranking noise of a request drawn from its view and offset (a hash of them and the seed) rather
   *  than from one stream over the run: a planner change that moves one request leaves the noise of
   *  every other request as it was, so two planners compare on the same draws (bench: AREAS_PAIRED=1).
   *  Default false (one stream: the published figures). */
  pairedNoise?: boolean;
  /** Another draw of the ranking noise on the same places (default 0, the published one): a stream
   *  result on 7 cases is one draw of many (bench: AREAS_NOISE_DRAW). */
  noiseDraw?: number;
  /** Where places lie (map-layouts.ts; default population), and the shares of a `mix`. */
  layout?: Layout;
  mix?: MixWeights;
  /** Places added besides the layout's, each spot `n` of them around a point (Gaussian, `km` its sigma;
   *  0: all at the very point, as a mall's shops are): a tiny dense area, or places no split separates. */
  spots?: Array<{ lat: number; lng: number; n: number; km: number }>;
  /** A ranking that is not independent of place: `centre` ranks a place lower the further it lies from
   *  the view's centre, `dense` higher the more places lie near it (within 1/64 of the view's size);
   *  `rankBias` weighs it against the prominence's spread (default 1). */
  rankBy?: 'centre' | 'dense';
  rankBias?: number;
  /** Share of pages that lose one of their places (the page comes back one short: a product that
   *  filters a result out after ranking), and share that show, in place of one of theirs, a place of
   *  the page before (a repeat): beside the ranking noise. */
  dropShare?: number;
  repeatShare?: number;
  /** Requests answered 429/503 in a row (a burst): from request `at`, `length` of them. */
  burst?: { at: number; length: number };
}

/** The box on the ground a request's camera shows. */
function cameraBox(v: { altitude: number; lat: number; lng: number; fov: number }): Box {
  const h = v.altitude * 2 * Math.tan(((v.fov / 2) * Math.PI) / 180);
  const halfLat = h / 2 / 111_320;
  const halfLng = (h * VIEW_W) / VIEW_H / 2 / (111_320 * Math.max(0.05, Math.cos((v.lat * Math.PI) / 180)));
  return { s: v.lat - halfLat, w: v.lng - halfLng, n: v.lat + halfLat, e: v.lng + halfLng };
}

/** A request's noise seed from the site's seed, its view and its offset (FNV-1a). */
function keyed(seed: number, b: Box, offset: number): number {
  const k = `${seed},${b.s.toFixed(7)},${b.w.toFixed(7)},${b.n.toFixed(7)},${b.e.toFixed(7)},${offset}`;
  let h = 0x811c9dc5;
  for (let i = 0; i < k.length; i++) h = Math.imul(h ^ k.charCodeAt(i), 0x01000193);
  return (h >>> 0) || 1;
}

export function mapSite(o: MapSiteOptions): MapSite {
  const r = rng(o.seed ?? 1);
  const b = o.area.bbox;
  const gl = (b.n - b.s) * 0.1, gw = (b.e - b.w) * 0.1;
  const field = { s: Math.max(-85, b.s - gl), w: Math.max(-180, b.w - gw), n: Math.min(85, b.n + gl), e: Math.min(180, b.e + gw) };
  const { draw, shape } = layoutDrawer(o.layout ?? 'population', field, r, o.rural ?? 0.15, o.mix);
  // Places are drawn one after another until `places` are drawn, or until `inside` of them lie in
  // the area (then the area's truth is exactly `inside` places).
  const la: number[] = [], lo: number[] = [], pr: number[] = [];
  let insideDrawn = 0;
  const more = () => (o.inside !== undefined ? insideDrawn < o.inside : la.length < (o.places ?? 0));
  while (more()) {
    const [y, x] = draw();
    la.push(y); lo.push(x); pr.push(-Math.log(r() || 1e-12));
    if (o.inside !== undefined && o.area.contains(y, x)) insideDrawn++;
  }
  for (const spot of o.spots ?? []) {
    for (let k = 0; k < spot.n; k++) {
      const [y, x] = spot.km ? [spot.lat + (gauss(r) * spot.km) / 111.32, spot.lng + (gauss(r) * spot.km) / (111.32 * Math.cos((spot.lat * Math.PI) / 180))] : [spot.lat, spot.lng];
      la.push(y); lo.push(x); pr.push(-Math.log(r() || 1e-12));
    }
  }
  const n = la.length;
  const lat = Float64Array.from(la), lng = Float64Array.from(lo), prominence = Float32Array.from(pr);
  la.length = lo.length = pr.length = 0;
  const index = new KDBush(Math.max(1, n));
  for (let i = 0; i < n; i++) index.add(lng[i]!, lat[i]!);
  if (!n) index.add(1e3, 1e3);
  index.finish();
  const inside = new Uint8Array(n);
  let insideCount = 0;
  for (let i = 0; i < n; i++) if (o.area.contains(lat[i]!, lng[i]!)) { inside[i] = 1; insideCount++; }
  const noise = o.noise ?? 0.02;
  const noiseSeed = (o.seed ?? 1) + 7919 * (o.noiseDraw ?? 0);
  const noiseRng = rng(noiseSeed + 7);
  const failRng = rng((o.seed ?? 1) + 13);
  const capOf = typeof o.cap === 'function' ? o.cap : () => (o.cap as number | undefined) ?? SITE_VIEW_CAP;
  const centre = (v: Box) => ({ lat: (v.s + v.n) / 2, lng: (v.w + v.e) / 2 });
  // A cap that changes over time: the oracle, knowing every place, counts the lower of the cap
  // before the first request and after the last.
  const oracleCap = (cell: Box) => Math.min(capOf({ box: cell, ...centre(cell), request: 0 }), capOf({ box: cell, ...centre(cell), request: Number.MAX_SAFE_INTEGER }));

  const inBox = (v: Box) => index.range(v.w, v.s, v.e, v.n).filter((i) => i < n && lat[i]! < v.n && lng[i]! < v.e);
  const pageRng = rng((o.seed ?? 1) + 17);
  /** A place's rank bonus in a view (rankBy): its distance from the view's centre (in half-sizes), or
   *  the log of the places near it. */
  const bias = (box: Box, ids: number[]): ((i: number) => number) => {
    const k = o.rankBias ?? 1;
    if (o.rankBy === 'centre') {
      const cy = (box.s + box.n) / 2, cx = (box.w + box.e) / 2, hy = (box.n - box.s) / 2, hx = (box.e - box.w) / 2;
      return (i) => -k * Math.hypot((lat[i]! - cy) / hy, (lng[i]! - cx) / hx);
    }
    if (o.rankBy === 'dense') {
      const ry = (box.n - box.s) / 64, rx = (box.e - box.w) / 64;
      const near = new Map(ids.map((i) => [i, index.range(lng[i]! - rx, lat[i]! - ry, lng[i]! + rx, lat[i]! + ry).length]));
      return (i) => k * 0.5 * Math.log(near.get(i)!);
    }
    return () => 0;
  };
  /** The places a view of `box` shows: its box's, and with a margin those around its edges too. */
  const shownIn = (box: Box): number[] => {
    const m = o.margin ?? 0;
    const hLat = (box.n - box.s) / 2, hLng = (box.e - box.w) / 2;
    return inBox(m ? { s: box.s - 2 * m * hLat, w: box.w - 2 * m * hLng, n: box.n + 2 * m * hLat, e: box.e + 2 * m * hLng } : box);
  };
  /** The places a view of `box` shows at request number `request`, ranked with noise, from `offset`. */
  const ranked = (box: Box, request: number, offset: number, asked: number): number[] => {
    const ids = shownIn(box);
    const cap = capOf({ box, ...centre(box), request });
    const draw = o.pairedNoise ? rng(keyed(noiseSeed, box, offset)) : noiseRng;
    const plus = bias(box, ids);
    const scored = ids.map((i) => [i, prominence[i]! + plus(i) + noise * gauss(draw)] as const).sort((a, c) => c[1] - a[1]);
    const shown = scored.slice(0, cap);
    const page = shown.slice(offset, offset + (o.pageSize ?? Math.min(asked, SITE_PAGE))).map(([i]) => i);
    // A page that loses a place, or shows one of the page before in place of one of its own.
    if (o.dropShare && page.length > 1 && pageRng() < o.dropShare) page.splice(Math.floor(pageRng() * page.length), 1);
    if (o.repeatShare && offset > 0 && page.length > 1 && pageRng() < o.repeatShare) page[Math.floor(pageRng() * page.length)] = shown[Math.max(0, offset - 1 - Math.floor(pageRng() * Math.min(offset, 20)))]![0];
    return page;
  };
  /** What the oracle must page of a view on a site with a margin: the places it shows in prominence
   *  order (no noise: the oracle knows the ranking) down to the last of its cell's places of the area
   *  (`own`: the cell's places, inBox).
   *  The places around its edges count against its cap and take its pages where they rank above
   *  those; past that last place nothing is asked. */
  const marginView = (cell: Box, own: number[]): number[] => {
    const mine = new Set(own.filter((i) => inside[i]));
    const shown = shownIn(cell).sort((a, b) => prominence[b]! - prominence[a]!);
    let last = -1;
    shown.forEach((i, k) => { if (mine.has(i)) last = k; });
    return shown.slice(0, last + 1);
  };
  /** The oracle's quadtree: each view holding places of the area and at most its cap (`ids`: the
   *  places it must page), or without one (no ids). On a site with a margin a view also shows places
   *  around its edges (marginView): they count against its cap, so the oracle's views are ones the site
   *  answers in full (before session 17 it counted the cell's places alone, leaves the site capped). */
  const visitOracle = (roots: Box[], leaf: (cell: Box, ids?: number[], depth?: number) => void, inner?: (cell: Box, n: number, depth: number) => void, scale = 1) => {
    const visit = (cell: Box, depth: number) => {
      if (!o.area.meets(cell)) return;
      const own = inBox(cell);
      if (!own.some((i) => inside[i])) return leaf(cell, undefined, depth);
      const ids = o.margin ? marginView(cell, own) : own;
      if (ids.length <= Math.floor(scale * oracleCap(cell)) || depth > 24) return leaf(cell, ids, depth);
      inner?.(cell, ids.length, depth);
      for (const q of quadrants(cell)) visit(q, depth + 1);
    };
    for (const root of roots) visit(root, 0);
  };
  const site: MapSite = {
    shownIds: (cell) => shownIn(cameraBox(readPb(buildPb(cell, 0))!)),
    count: n, lat, lng, inside, insideCount, requests: 0, shape, prominence, noise,
    serve(url) {
      const u = new URL(url);
      const v = readPb(u.searchParams.get('pb') ?? '');
      if (!v) return { status: 400, body: 'no pb' };
      const request = site.requests++;
      if ((o.fail && failRng() < o.fail) || (o.burst && request >= o.burst.at && request < o.burst.at + o.burst.length)) return { status: request % 2 ? 503 : 429, body: '' };
      const shown = ranked(cameraBox(v), request, v.offset, v.pageSize);
      return { status: 200, body: constructedSearchBody(u.searchParams.get('q'), shown.map((i) => ({ i, lat: lat[i]!, lng: lng[i]! }))) };
    },
    pageIds(box, offset, size = SITE_PAGE) {
      return ranked(box, site.requests++, offset, size);
    },
    oracleViews(roots, scale = 1) {
      const views: Array<{ box: Box; ids: number[] }> = [];
      let empty = 0;
      visitOracle(roots, (cell, ids) => (ids ? views.push({ box: cell, ids }) : empty++), undefined, scale);
      return { views, empty };
    },
    oracleCells(roots) {
      const cells: Array<{ box: Box; d: number; n: number; kind: 'leaf' | 'empty' | 'split' }> = [];
      visitOracle(roots, (box, ids, d = 0) => cells.push({ box, d, n: ids ? ids.length : inBox(box).length, kind: ids ? 'leaf' : 'empty' }), (box, n, d) => cells.push({ box, d, n, kind: 'split' }));
      return cells;
    },
    oracle(roots, paged) {
      let cost = 0;
      // Paged as a planner that cannot see a view's count pages it: a first page, then pages `step`
      // further until a short one (a view of exactly 20 places pays a second, empty-ended page).
      const page = o.pageSize ?? SITE_PAGE;
      const pages = (n: number) => (paged ? (n < page ? 1 : Math.floor((n - page) / paged.step) + 2) : Math.ceil(n / page));
      // A view without a place of the area: the oracle skips it, a planner asks it once.
      visitOracle(roots, (_cell, ids) => { cost += ids ? pages(ids.length) : paged ? 1 : 0; });
      return cost;
    },
    async listen(lo = {}) {
      const hits = new Map<string, number>();
      let held: Array<() => void> | null = null;
      const resume = () => {
        const go = held ?? [];
        held = null;
        for (const send of go) send();
      };
      const server = createServer((req, res) => {
        hits.set(req.url ?? '/', (hits.get(req.url ?? '/') ?? 0) + 1);
        const out = site.serve(`http://x${req.url ?? '/'}`);
        const send = () => { if (!res.destroyed) res.writeHead(out.status, { 'content-type': 'application/json; charset=utf-8' }).end(out.body); };
        setTimeout(() => (held ? held.push(send) : send()), lo.delayMs ?? 0);
      });
      await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
      const { port } = server.address() as AddressInfo;
      return {
        url: `http://127.0.0.1:${port}`, hits, pause: () => { held ??= []; }, resume,
        close: () => { resume(); return new Promise((ok) => server.close(() => ok())); },
      };
    },
  };
  return site;
}

const PRODUCT = 'https://www.google.com';

/** The adapter with every search step sent to `base` instead of the product (tests only). */
export function onSite(adapter: WebAdapter, base: string): WebAdapter {
  const moved = (s: Step): Step => (s.url.startsWith(PRODUCT) ? { ...s, url: base + s.url.slice(PRODUCT.length) } : s);
  return {
    ...adapter,
    plan: (ctx) => adapter.plan(ctx).map(moved),
    parse: (step, res, ctx) => {
      const out = adapter.parse(step, res, ctx);
      return out.next ? { ...out, next: out.next.map(moved) } : out;
    },
  };
}
