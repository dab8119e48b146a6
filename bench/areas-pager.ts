/**
 * A fast harness for the pager under ranking noise (issue 33, session 22): the oracle's own views of a
 * few tuned sites (held to the whole cap, or to the share of it noise.ts's view size gives at the
 * site's noise, as the planner's views are), paged by a pager design and asked again until the
 * area's places reach a recall, on paired noise (each request's draw from its view and offset, so two
 * designs compare on the same draws). Seconds a case: try pager designs here, then carry the winner
 * into the planner (cover.ts, repair.ts, noise.ts) and apply the keep rule on areas-robust.
 *
 *   nice -n 19 node bin/run-ts.js bench/areas-pager.ts                 every design, every case
 *   PAGER_DESIGNS=main,greedy PAGER_SCALE=0.5 PAGER_RECALL=0.995 ...  a few
 *   PAGER_NOISES=0.05,0.1 PAGER_SHARES=cap,size,0.67 ...              the sites' σ, the views' shares
 *
 * One line a case and design: requests / the oracle's after the first pass and at each recall asked
 * (null: not reached); then the mean a design and view share over the cases. `main` is the planner's
 * pager as the noise floor (bench/areas-floor.ts) runs it; the `sq` designs grow the overlap with a
 * rank's move modelled as √(s² + s), s = rate x rank (session 22; run them with AREAS_K_SQRT=1 on the
 * branch areasK-sqrt, whose fit reads that model). Findings: docs/performance/areas.md, session 22.
 */
import { resolveArea } from '../src/lookups/geo/area/resolve.ts';
import { populationReady } from '../src/sources/maps-search/density.ts';
import { rootViews } from '../src/sources/maps-search/cover.ts';
import { repairDry, repairOffset } from '../src/sources/maps-search/repair.ts';
import { learnNoise, noiseRate, offAll, onPage, pageRanks, RATE_REPAIRED, type NoiseFit } from '../src/sources/maps-search/noise.ts';
import { mapSite, LAYOUTS, type MapSite } from '../test/support/map-site.ts';
import type { Box } from '../src/sources/_maps/cells.ts';

interface Paged { box: Box; got: Set<number>; offs: number[]; asked: number[]; t: number; dry: number; pos: Map<number, number[]> }

interface Design {
  name: string;
  /** The overlap of the page after one ending at rank `end`. */
  overlap: (rate: number, end: number, size: number) => number;
  /** How pages are asked again: the views missing most first, each to its end (the floor's order), or
   *  across views by the page expected to find most. */
  repair: 'order' | 'greedy';
  /** The missing ranks' weights from where the view's seen places were seen (posterior), or the
   *  chance each rank is off every page (prior). */
  post?: boolean;
}

const grown = (g: number, gAbove = 1.5) => (rate: number, end: number, size: number) =>
  Math.min(Math.floor(size / 2), Math.max(2, Math.round((rate <= RATE_REPAIRED ? g : gAbove) * rate * end)));

const sq = (g: number, gAbove = 1.5) => (rate: number, end: number, size: number) => {
  const x = rate * end;
  return Math.min(Math.floor(size / 2), Math.max(2, Math.round((rate <= RATE_REPAIRED ? g : gAbove) * Math.sqrt(x * x + x))));
};

const DESIGNS: Design[] = [
  { name: 'sq1.72', overlap: sq(1.72), repair: 'order' },
  { name: 'sq1.6', overlap: sq(1.6), repair: 'order' },
  { name: 'sq1.5', overlap: sq(1.5), repair: 'order' },
  { name: 'sq1.85', overlap: sq(1.85), repair: 'order' },
  { name: 'main', overlap: grown(1.72), repair: 'order' },
  { name: 'greedy', overlap: grown(1.72), repair: 'greedy' },
  { name: 'greedy-post', overlap: grown(1.72), repair: 'greedy', post: true },
  { name: 'g1.2-greedy', overlap: grown(1.2, 1.2), repair: 'greedy' },
  { name: 'g1.2-greedy-post', overlap: grown(1.2, 1.2), repair: 'greedy', post: true },
  { name: 'g0.8-greedy-post', overlap: grown(0.8, 0.8), repair: 'greedy', post: true },
  { name: 'g2.2-greedy', overlap: grown(2.2, 2.2), repair: 'greedy' },
];

/** Tuned cases of areas-robust's matrix (seed 1, Nevada and Utah) with a number for a cap. */
function cases(): Array<{ layout: (typeof LAYOUTS)[number]; cap: number; noise: number; area: string; places: number }> {
  const NOISES = [0.02, 0.05, 0.1, 0.2, 0.3], CAPS = [60, 100, 110, 120, 140], SIZES = [5000, 10_000, 20_000], AREAS = ['US>Nevada', 'US>Utah'];
  const out = [];
  for (const [l, layout] of LAYOUTS.entries()) for (const [c, cap] of CAPS.entries()) out.push({ layout, cap, noise: NOISES[(l + c) % 5]!, area: AREAS[(l + c) % 2]!, places: SIZES[(l + c) % 3]! });
  const want = (process.env.PAGER_NOISES ?? '0.05,0.1,0.2').split(',').map(Number);
  return out.filter((k) => want.includes(k.noise));
}

/** Each rank's weight of being one of the view's missing places. The prior: its chance of being off
 *  every page. The posterior also spends the ranks the seen places hold: each seen place's rank is
 *  estimated from where its pages showed it (the mean of its positions), and a rank's prior is
 *  lowered by the seen places estimated there beyond what the prior leaves seen. */
function missingWeights(v: Paged, size: number, rate: number, post: boolean): number[] {
  const from = v.offs[0]!;
  const pages = pageRanks(v.offs, size);
  for (const a of v.asked) pages.push([a, a + size]);
  const q: number[] = [];
  for (let i = from; i < v.t; i++) q.push(offAll(pages, i + 0.5, rate));
  if (!post) return q;
  // Seen places by estimated rank, spread over ranks by a normal of rate x rank / sqrt(sightings).
  const seenAt = new Float64Array(v.t - from);
  for (const ps of v.pos.values()) {
    const m = ps.reduce((a, x) => a + x, 0) / ps.length;
    const sd = Math.max(0.5, (rate * m) / Math.sqrt(ps.length));
    const lo = Math.max(from, Math.floor(m - 4 * sd)), hi = Math.min(v.t, Math.ceil(m + 4 * sd) + 1);
    let z = 0;
    const w: number[] = [];
    for (let i = lo; i < hi; i++) { const x = (i + 0.5 - m) / sd; const e = Math.exp(-x * x / 2); w.push(e); z += e; }
    if (z > 0) for (let i = lo; i < hi; i++) seenAt[i - from] += w[i - lo]! / z;
  }
  // A rank where the seen places crowd (more than one a rank expected seen) is less likely missing.
  return q.map((x, j) => x * Math.max(0, Math.min(2, 1 + (1 - x) - seenAt[j]!)));
}

/** The best new offset of a view asked again and its expected find (missing x the share of the
 *  weights its page shows). */
function best(v: Paged, size: number, rate: number, post: boolean): { o: number; gain: number } | undefined {
  const missing = v.t - v.got.size;
  if (missing <= 0 || v.offs.length < 2) return undefined;
  const from = v.offs[0]!;
  const q = missingWeights(v, size, rate, post);
  const all = q.reduce((a, x) => a + x, 0);
  if (!(all > 0)) return undefined;
  let bo: number | undefined, most = 0;
  for (let o = Math.max(1, from); o < v.t; o++) {
    if (v.offs.includes(o) || v.asked.includes(o)) continue;
    let sum = 0;
    for (let i = Math.max(from, Math.floor(o - 4 * rate * (o + size))); i < v.t && i < o + size + 4 * rate * v.t; i++) sum += q[i - from]! * onPage(o, o + size, i + 0.5, rate);
    if (sum >= most && sum > 0) { most = sum; bo = o; }
  }
  return bo === undefined ? undefined : { o: bo, gain: (missing * most) / all };
}

function run(site: MapSite, roots: Box[], share: number, d: Design, recalls: number[], size = 20): { first: number; at: number[] } {
  const { views, empty } = site.oracleViews(roots, share);
  let requests = empty, nz: NoiseFit | undefined, foundInside = 0;
  const found = new Set<number>();
  const see = (v: Paged, ids: number[], offset: number) => {
    ids.forEach((i, k) => {
      v.got.add(i);
      const p = v.pos.get(i);
      if (p) p.push(offset + k); else v.pos.set(i, [offset + k]);
      if (!found.has(i)) { found.add(i); if (site.inside[i]) foundInside++; }
    });
  };
  const targets = recalls.map((r) => Math.ceil(r * site.insideCount));
  const at = recalls.map(() => 0);
  const mark = () => targets.forEach((t, j) => { if (!at[j] && foundInside >= t) at[j] = requests; });
  const paged: Paged[] = [];
  for (const b of views) {
    const v: Paged = { box: b.box, got: new Set(), offs: [], asked: [], t: 0, dry: 0, pos: new Map() };
    let offset = 0;
    for (;;) {
      const ids = site.pageIds(v.box, offset, size);
      requests++;
      v.offs.push(offset);
      see(v, ids, offset);
      if (ids.length < size) { v.t = offset + ids.length; break; }
      offset = offset + size - d.overlap(noiseRate(nz), offset + size, size);
    }
    if (v.t > size) nz = learnNoise(nz, v.offs, size, v.t, v.t - v.got.size);
    paged.push(v);
  }
  const first = requests;
  mark();
  const goal = Math.max(...targets);
  const ask = (v: Paged, o: number) => {
    v.asked.push(o);
    const before = v.got.size;
    see(v, site.pageIds(v.box, o, size), o);
    requests++;
    v.dry = v.got.size > before ? 0 : v.dry + 1;
    mark();
  };
  const rate = noiseRate(nz);
  if (d.repair === 'order') {
    const short = paged.filter((v) => v.got.size < v.t && v.offs.length > 1).sort((a, b) => (b.t - b.got.size) - (a.t - a.got.size));
    for (const v of short) {
      if (foundInside >= goal) break;
      while (v.got.size < v.t && v.dry < repairDry(size) && foundInside < goal) {
        const o = repairOffset(v.offs, v.asked, v.t, size, rate, 0);
        if (o === undefined) break;
        ask(v, o);
      }
    }
  } else {
    // Across views: the page expected to find most next (recomputed for the view it was asked of).
    const plans = new Map<Paged, { o: number; gain: number }>();
    for (const v of paged) { const p = best(v, size, rate, !!d.post); if (p) plans.set(v, p); }
    while (foundInside < goal && plans.size) {
      let bv: Paged | undefined, bp: { o: number; gain: number } | undefined;
      for (const [v, p] of plans) if (!bp || p.gain > bp.gain) { bv = v; bp = p; }
      ask(bv!, bp!.o);
      const p = best(bv!, size, rate, !!d.post);
      if (p && bv!.asked.length < 4 * bv!.offs.length) plans.set(bv!, p); else plans.delete(bv!);
    }
  }
  return { first, at: at.map((x) => x || Infinity) };
}

await populationReady();
const scale = Number(process.env.PAGER_SCALE || 0.5);
const recalls = (process.env.PAGER_RECALL ?? '0.99,0.995').split(',').map(Number);
const names = process.env.PAGER_DESIGNS?.split(',');
const designs = names ? DESIGNS.filter((d) => names.includes(d.name)) : DESIGNS;
const sums = new Map<string, { n: number; at: number[]; first: number }>();
for (const k of cases()) {
  const area = resolveArea(k.area);
  const mk = () => mapSite({ area, inside: Math.round(k.places * scale), seed: 1, layout: k.layout, cap: k.cap, noise: k.noise, pairedNoise: true });
  const site = mk();
  const oracle = site.oracle(rootViews(area));
  for (const shareOf of (process.env.PAGER_SHARES ?? 'cap,size').split(',')) {
    // The planner's views at this noise: about size / 2 / (1.5 x rate) places (noise.ts skipShare).
    const share = shareOf === 'cap' ? 1 : shareOf === 'size' ? Math.max(0.5, Math.min(1, 20 / 2 / (1.5 * k.noise) / k.cap)) : Number(shareOf);
    for (const d of designs) {
      const r = run(site, rootViews(area), share, d, recalls);
      const key = `${d.name}/${shareOf}`;
      const s = sums.get(key) ?? { n: 0, at: recalls.map(() => 0), first: 0 };
      s.n++; s.first += r.first / oracle; r.at.forEach((x, j) => { s.at[j] += x / oracle; });
      sums.set(key, s);
      process.stdout.write(`${JSON.stringify({ case: `${k.layout}/${k.cap}/${k.noise}`, views: shareOf, share: Math.round(share * 100) / 100, design: d.name, first: Math.round((1000 * r.first) / oracle) / 1000, ...Object.fromEntries(recalls.map((x, j) => [`at_${x}`, Math.round((1000 * r.at[j]!) / oracle) / 1000])) })}\n`);
    }
  }
}
for (const [key, s] of sums) process.stdout.write(`${JSON.stringify({ design: key, cases: s.n, first: Math.round((1000 * s.first) / s.n) / 1000, ...Object.fromEntries(recalls.map((x, j) => [`mean_at_${x}`, Math.round((1000 * s.at[j]!) / s.n) / 1000])) })}\n`);
