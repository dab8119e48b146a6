/**
 * What no planner can beat on a noisy site (issue 33): an omniscient reader's requests. It knows every
 * place of the area, each place's prominence and the ranking's sigma, and which places it has already
 * seen; it reads the oracle's own quadtree views (held to the cap, or to a share of it: the best of
 * BOUND_SHARES), and spends each request where it expects the most places of the area it has not seen
 * (each view's next page at the offset that catches most of them in simulated rankings), across all
 * views, until it holds `recall` of the area's places. A real planner knows less than this in every
 * respect (it does not know where places are, how many a view holds, or which ranks it missed), so a
 * case whose bound is above 1.25× the oracle cannot meet the requests target with the site's
 * noise; the bound is an upper estimate of that least (its greedy choice is not proven optimal) but
 * paged knowing more than any planner can.
 */
import type { Box } from '../src/sources/_maps/cells.ts';
import { rng } from '../src/sources/_maps/test-support.ts';
import { gauss } from '../test/support/map-layouts.ts';
import type { MapSite } from '../test/support/map-site.ts';

/** View sizes tried, as shares of the cap (session 18: the best lay between 0.45 and 1). */
export const BOUND_SHARES = [1, 0.8, 0.67, 0.55, 0.45, 0.35];
/** Simulated rankings a view's offsets are chosen on. */
const SIMS = 96;

interface Read { box: Box; ids: number[]; seen: Uint8Array; ranks?: Int16Array[]; gain: number; offset: number; asked: number }

/** A view is given up after this many times its pages (a place the noise never ranks into reach). */
const GIVE_UP = 20;

/** The least requests over BOUND_SHARES, and the share that gave it. */
export function omniscientBound(site: MapSite, roots: Box[], recall: number, size = 20): { requests: number; share: number } {
  let best = { requests: Infinity, share: 1 };
  for (const share of BOUND_SHARES) {
    const requests = boundAt(site, roots, recall, size, share);
    if (requests < best.requests) best = { requests, share };
  }
  return best;
}

function boundAt(site: MapSite, roots: Box[], recall: number, size: number, share: number): number {
  const { views } = site.oracleViews(roots, share);
  const r = rng(4242);
  const target = Math.ceil(recall * site.insideCount);
  let found = 0, requests = 0;
  const reads: Read[] = views.map((v) => ({ box: v.box, ids: v.ids, seen: new Uint8Array(v.ids.length), gain: 0, offset: 0, asked: 0 }));
  for (const v of reads) {
    if (v.ids.length > size) {
      // Simulated rankings of the view (local index of the place at each rank), as the site draws them.
      v.ranks = [];
      for (let s = 0; s < SIMS; s++) {
        const sc = v.ids.map((i, j) => [j, site.prominence[i]! + site.noise * gauss(r)] as const).sort((a, b) => b[1] - a[1]);
        v.ranks.push(Int16Array.from(sc.map((x) => x[0])));
      }
    }
    plan(site, v, size);
  }
  // Greedy across views: the request expected to add most places of the area not yet seen.
  const heap = reads.filter((v) => v.gain > 0).sort((a, b) => b.gain - a.gain);
  while (found < target && heap.length) {
    const v = heap.shift()!;
    const at = new Map(v.ids.map((i, j) => [i, j]));
    for (const i of site.pageIds(v.box, v.offset, size)) {
      const j = at.get(i);
      if (j === undefined || v.seen[j]) continue;
      v.seen[j] = 1;
      if (site.inside[i]) found++;
    }
    requests++;
    v.asked++;
    plan(site, v, size);
    if (v.gain > 0 && v.asked < GIVE_UP * Math.ceil(v.ids.length / size)) {
      let lo = 0, hi = heap.length;
      while (lo < hi) { const m = (lo + hi) >> 1; if (heap[m]!.gain >= v.gain) lo = m + 1; else hi = m; }
      heap.splice(lo, 0, v);
    }
  }
  return requests;
}

/** The view's best next offset and its expected places of the area not yet seen. */
function plan(site: MapSite, v: Read, size: number): void {
  const n = v.ids.length;
  const want = (j: number) => (!v.seen[j] && site.inside[v.ids[j]!] ? 1 : 0);
  if (!v.ranks) {
    let g = 0;
    for (let j = 0; j < n; j++) g += want(j);
    v.gain = g;
    v.offset = 0;
    return;
  }
  const sum = new Float64Array(n + 1);
  for (const rk of v.ranks) {
    let acc = 0;
    const pre = new Float64Array(n + 1);
    for (let k = 0; k < n; k++) { acc += want(rk[k]!); pre[k + 1] = acc; }
    for (let o = 0; o < n; o++) sum[o] += pre[Math.min(n, o + size)]! - pre[o]!;
  }
  let bo = 0;
  for (let o = 1; o < n; o++) if (sum[o]! > sum[bo]!) bo = o;
  v.offset = bo;
  v.gain = sum[bo]! / v.ranks.length;
}
