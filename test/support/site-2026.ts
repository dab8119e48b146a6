/**
 * A loopback map product as it is in late 2026 (test support for issue 34, not a product feature):
 * places with reviews, served in the answer formats the /maps/reviews adapter reads, with the
 * signed-out limited view, signed-in cookie sets, the search page's review dialog, and stub answers.
 *
 * - Place pages (`/maps/place/?q=place_id:`, `/maps?cid=`) state each place's review count.
 * - `/maps/rpc/listugcposts`: with a valid `__Secure-1PSID` cookie (one of `cookies`, each good for
 *   its number of requests, then expired: 401, or `expired` 403 or a sign-in page) every page, 20 at most a page (`listPage`), with tokens; signed
 *   out the limited view: `forbidden` (403, the default), `five` (five reviews, no token) or `sign_in`
 *   (a sign-in page in place of the answer).
 * - The review dialog (`/httpservice/web/PrivateLocalSearchUiDataService/GetLocalBoqProxy`,
 *   constructed-dialog.ts): ten a page (`dialogPage`) with tokens, signed in or not, each sort order.
 * - Stubs: a share of place pages (`stubShare`, drawn per visitor and place: the account's cookie,
 *   else the session cookie `NID` the site sets on a first visit; by the visitor's order among those
 *   who asked that place, so the draws do not follow the scheduling) show today's hours only and no
 *   place id; asked again as another visitor the page is whole but for the same share. The same for
 *   the listings of a search answer (`/search?tbm=map`: every place, in order, 20 a page, whatever
 *   the phrase or view). `stubBy: 'visitor'` draws per visitor instead: a visitor drawn gets every
 *   page and listing as a stub (what trackers report of some exit IPs and sessions).
 * - `hits` counts requests by kind; `cookiesSeen` every cookie value the site got (a leak check
 *   compares it with what trawl wrote down).
 *
 * @example
 *   const site = site2026({ places: 20, cookies: { good: Infinity } });
 *   const http = await site.listen();   // onSite(adapter, http.url) points adapters at it
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { constructedIds, constructedPlacePage, constructedSearchBody, type ConstructedPlace } from '../../src/sources/_maps/constructed-search.ts';
import { constructedPage, type ConstructedReview } from '../../src/sources/maps-reviews/constructed-page.ts';
import { constructedDialogAnswer } from '../../src/sources/maps-reviews/constructed-dialog.ts';
import { rng } from '../../src/sources/_maps/test-support.ts';
import { readPb } from '../../src/sources/_maps/pb.ts';

const signIn = { status: 200, body: '<!doctype html><html><head><title>Sign in - Google Accounts</title></head><body><a href="https://accounts.google.com/ServiceLogin">Sign in</a></body></html>', type: 'text/html' };
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const START = 1_767_225_600; // 2026-01-01T00:00:00Z

export interface Site2026Options {
  places: number;
  seed?: number;
  /** Reviews of place i (default: drawn, 0 to about 200). */
  reviewsOf?: (i: number) => number;
  /** `open`: signed-out pages are whole (the product before 2026-02). */
  signedOut?: 'forbidden' | 'five' | 'sign_in' | 'open';
  /** Reviews the place states but no page ever serves (a count the list falls short of). */
  withheld?: number;
  /** Valid `__Secure-1PSID` values → requests each answers before it expires. */
  cookies?: Record<string, number>;
  /** How an expired cookie is answered: 401 (default), 403, or a sign-in page in place of the list. */
  expired?: 401 | 403 | 'sign_in';
  /** Share (0..1) of (visitor, place) page answers and listings that are stubs. */
  stubShare?: number;
  /** Draw stubs per visitor and place (default) or per visitor. */
  stubBy?: 'place' | 'visitor';
  /** Most reviews a signed-in list page gives (default 20), and a dialog page (default 10). */
  listPage?: number;
  dialogPage?: number;
}

export interface Site2026 {
  placeIds: string[];
  counts: number[];
  hits: { place: number; reviews: number; reviews_signed_in: number; reviews_limited: number; dialog: number; stubs: number; expired: number; search: number };
  /** Each search page asked, by its offset: who asked and how many of its listings were stubs, in order. */
  searchAsks: Map<number, Array<{ who: string; stubs: number }>>;
  cookiesSeen: Set<string>;
  /** Whether each place's last page answer was a stub (the truth a bench checks answers against). */
  lastStub: Map<number, boolean>;
  /** Who asked each place's page, in order (`cookie:<__Secure-1PSID>`, or `nid:<session cookie>`: the
   *  site gives a visitor without either a new session, `Set-Cookie: NID`). */
  placeAsks: Map<number, string[]>;
  serve(url: string, headers?: Record<string, string | string[] | undefined>): { status: number; body: string; type: string; headers?: Record<string, string> };
  listen(): Promise<{ url: string; close(): Promise<void> }>;
}

export function site2026(o: Site2026Options): Site2026 {
  const r = rng(o.seed ?? 7);
  const counts = Array.from({ length: o.places }, (_, i) => (o.reviewsOf ? o.reviewsOf(i) : r() < 0.1 ? Math.floor(r() * 5) : 6 + Math.floor(r() * 200)));
  const left = new Map(Object.entries(o.cookies ?? {}));
  const byPlaceId = new Map(counts.map((_, i) => [constructedIds(i).placeId, i]));
  const byEngine = new Map(counts.map((_, i) => [constructedIds(i).engineId, i]));

  /** Review j of place i in an order: newest first by default. */
  function reviewAt(i: number, j: number, sort: number): ConstructedReview {
    const n = counts[i]!;
    // Newest first: j; oldest first would be n - 1 - j. Ratings follow the index, so each order is a permutation.
    const k = sort === 3 || sort === 4 ? byRating(i, j, sort) : j;
    return { id: `r${i}_${k}`, rating: 1 + ((i + k) % 5), ts: START - k * 3_600 - i, text: `Review ${k} of place ${i}`, author: `Author ${k}`, authorId: String(100_000_000_000_000_000n + BigInt(k)) };
    function byRating(_i: number, jj: number, s: number): number {
      const order = Array.from({ length: n }, (_, x) => x).sort((a, b) => (s === 3 ? -1 : 1) * (((i + a) % 5) - ((i + b) % 5)) || a - b);
      return order[jj]!;
    }
  }

  let sessions = 0;
  const visitorsOf = new Map<string, string[]>();
  const cookieText = (h: Record<string, string | string[] | undefined> | undefined): string => {
    const raw = h?.cookie;
    return Array.isArray(raw) ? raw.join('; ') : raw ?? '';
  };
  const cookieOf = (h: Record<string, string | string[] | undefined> | undefined): string | null => {
    const c = cookieText(h);
    for (const m of c.matchAll(/(?:^|;\s*)([^=;\s]+)=([^;]*)/g)) site.cookiesSeen.add(`${m[1]}=${m[2]}`);
    return /(?:^|;\s*)__Secure-1PSID=([^;]+)/.exec(c)?.[1] ?? null;
  };

  const place = (i: number, stub: boolean): ConstructedPlace => {
    const n = counts[i]!;
    const perScore: [number, number, number, number, number] = [0, 0, 0, 0, 0];
    for (let k = 0; k < n; k++) perScore[(i + k) % 5]!++;
    const hours = DAYS.map((day) => ({ day, ranges: '9 AM–5 PM' }));
    return { i, lat: 30.2 + i / 10_000, lng: -97.7, name: `Place ${i}`, reviews: n, rating: n ? 3 : null, perScore, category: 'Dentist', address: `${100 + i} Main St, Austin, TX 78701`,
      hours: stub ? hours.slice(0, 1) : hours };
  };

  const site: Site2026 = {
    placeIds: counts.map((_, i) => constructedIds(i).placeId), counts,
    hits: { place: 0, reviews: 0, reviews_signed_in: 0, reviews_limited: 0, dialog: 0, stubs: 0, expired: 0, search: 0 },
    searchAsks: new Map(),
    cookiesSeen: new Set(),
    placeAsks: new Map(),
    lastStub: new Map(),
    serve(url, headers) {
      const u = new URL(url);
      const notFound = { status: 404, body: 'not found', type: 'text/plain' };
      const cookie = cookieOf(headers);
      // A visitor is its account, else its session cookie; one without either is a new session.
      const visitor = () => {
        const nid = /(?:^|;\s*)NID=([^;]+)/.exec(cookieText(headers))?.[1] ?? null;
        const fresh = cookie === null && nid === null ? `s${++sessions}` : null;
        return { who: cookie !== null ? `cookie:${cookie}` : `nid:${nid ?? fresh}`, headers: fresh ? { headers: { 'set-cookie': `NID=${fresh}; Path=/` } } : {} };
      };
      // Per place, the draw is by the visitor's order among those who asked it (first, second...),
      // not by its name: which session asks which place follows the scheduling, and a test's count
      // of stubs met must not (session 25). A visitor still sees the same page each time it asks.
      const stubFor = (who: string, i: number, kind: string) => {
        if (!((o.stubShare ?? 0) > 0)) return false;
        if (o.stubBy === 'visitor') return hash(who) < o.stubShare!;
        const seen = visitorsOf.get(`${kind}${i}`) ?? [];
        if (!seen.includes(who)) visitorsOf.set(`${kind}${i}`, [...seen, who]);
        return hash(`${kind}${i}#${visitorsOf.get(`${kind}${i}`)!.indexOf(who)}`) < o.stubShare!;
      };
      const unlisted = (body: string, i: number) => body.replace(new RegExp(constructedIds(i).placeId, 'g'), '');
      if (u.pathname === '/maps/place/' || u.pathname === '/maps') {
        const q = u.searchParams.get('q') ?? '';
        const cid = u.searchParams.get('cid');
        const i = q.startsWith('place_id:') ? byPlaceId.get(q.slice(9)) : cid ? Number(cid) : undefined;
        if (i === undefined || !(i >= 0 && i < counts.length)) return notFound;
        site.hits.place++;
        const { who, headers: set } = visitor();
        site.placeAsks.set(i, [...(site.placeAsks.get(i) ?? []), who]);
        const stub = stubFor(who, i, '');
        if (stub) site.hits.stubs++;
        site.lastStub.set(i, stub);
        let body = constructedPlacePage(place(i, stub));
        if (stub) body = unlisted(body, i);
        return { status: 200, body, type: 'text/html; charset=utf-8', ...set };
      }
      if (u.pathname === '/search' && u.searchParams.get('tbm') === 'map') {
        const v = readPb(u.searchParams.get('pb') ?? '');
        if (!v) return { status: 400, body: 'no pb', type: 'text/plain' };
        site.hits.search++;
        const { who, headers: set } = visitor();
        const shown = Array.from({ length: Math.max(0, Math.min(counts.length, v.offset + Math.min(20, v.pageSize)) - v.offset) }, (_, k) => v.offset + k);
        const stubs = shown.filter((i) => stubFor(who, i, 'list|'));
        site.searchAsks.set(v.offset, [...(site.searchAsks.get(v.offset) ?? []), { who, stubs: stubs.length }]);
        let body = constructedSearchBody(u.searchParams.get('q'), shown.map((i) => place(i, stubs.includes(i))));
        for (const i of stubs) body = unlisted(body, i);
        return { status: 200, body, type: 'application/json; charset=utf-8', ...set };
      }
      if (u.pathname === '/maps/rpc/listugcposts') {
        const pb = u.searchParams.get('pb') ?? '';
        const m = /!1s([^!]+)!.*!2m2!1i(\d+)!2s([^!]*)!.*!13m1!1e(\d)/.exec(pb);
        const i = m ? byEngine.get(decodeURIComponent(m[1]!)) : undefined;
        if (!m || i === undefined) return notFound;
        site.hits.reviews++;
        const open = (o.signedOut ?? 'forbidden') === 'open';
        if ((cookie !== null && left.has(cookie)) || open) {
          if (!open) {
            const n = left.get(cookie!)!;
            if (n <= 0) {
              site.hits.expired++;
              if (o.expired === 'sign_in') return signIn;
              return { status: o.expired ?? 401, body: ")]}'\n[\"unauthenticated\"]", type: 'application/json' };
            }
            left.set(cookie!, n - 1);
            site.hits.reviews_signed_in++;
          }
          const total = Math.max(0, counts[i]! - (o.withheld ?? 0));
          const from = m[3] ? Number(decodeURIComponent(m[3]).slice(1)) : 0;
          const to = Math.min(total, from + Math.min(o.listPage ?? 20, Number(m[2])));
          const page = Array.from({ length: Math.max(0, to - from) }, (_, j) => reviewAt(i, from + j, Number(m[4])));
          return { status: 200, body: constructedPage(page, to < total ? `o${to}` : null), type: 'application/json; charset=utf-8' };
        }
        site.hits.reviews_limited++;
        const mode = o.signedOut ?? 'forbidden';
        if (mode === 'forbidden') return { status: 403, body: ")]}'\n[]", type: 'application/json' };
        if (mode === 'sign_in') return signIn;
        const five = Array.from({ length: Math.min(5, counts[i]!) }, (_, j) => reviewAt(i, j, Number(m[4])));
        return { status: 200, body: constructedPage(five, null), type: 'application/json; charset=utf-8' };
      }
      if (u.pathname === '/httpservice/web/PrivateLocalSearchUiDataService/GetLocalBoqProxy') {
        let args: unknown[] | undefined;
        try { args = (JSON.parse(u.searchParams.get('reqpld') ?? '') as unknown[][])[1]?.[9] as unknown[]; } catch { /* below */ }
        const id = Array.isArray(args?.[11]) ? (args![11] as unknown[])[0] : undefined;
        const i = typeof id === 'string' ? byEngine.get(id) : undefined;
        if (!args || i === undefined) return { status: 400, body: 'bad reqpld', type: 'text/plain' };
        site.hits.dialog++;
        const total = counts[i]!;
        const token = typeof args[19] === 'string' ? args[19] : '';
        const from = token ? Number(token.slice(1)) : 0;
        const to = Math.min(total, from + (o.dialogPage ?? 10));
        const page = Array.from({ length: Math.max(0, to - from) }, (_, j) => reviewAt(i, from + j, Number(args![1])));
        return { status: 200, body: constructedDialogAnswer(page, to < total ? `d${to}` : null), type: 'application/json; charset=utf-8' };
      }
      return notFound;
    },
    async listen() {
      const server = createServer((req, res) => {
        const out = site.serve(`http://x${req.url ?? '/'}`, req.headers);
        res.writeHead(out.status, { 'content-type': out.type, ...out.headers }).end(out.body);
      });
      await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
      const { port } = server.address() as AddressInfo;
      return { url: `http://127.0.0.1:${port}`, close: () => new Promise((ok) => { server.closeAllConnections(); server.close(() => ok()); }) };
    },
  };
  return site;
}

/** A stable share in [0, 1) of a text: FNV-1a, then murmur3's finalizer, without which texts that
 *  differ only in their last characters (`nid:s1`, `nid:s2`) land close together and a share is no share. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < s.length; k++) h = Math.imul(h ^ s.charCodeAt(k), 0x01000193) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}
