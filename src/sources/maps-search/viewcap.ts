/**
 * The view cap, learned while an area query runs: how many places a map view shows at most is never
 * assumed (a site may show 120, 110 or 60 a view, a different number by region or query, or change it
 * mid-run). A view is paged until a short page; its pages then stop at a count T, and T is either all
 * of its places (complete) or the cap (it holds more). The evidence that tells them apart:
 *
 * - More distinct places than T: the view's requests together showed more places than any one of
 *   them counts (ranking noise moves places across the cut), so it holds more than it shows: capped.
 * - A probe: one page of a sub-cell of the view holding at most PAGE_SIZE - 1 of the view's places
 *   (the fullest such cell). A complete view already showed every place of the sub-cell; a capped
 *   view showed only its share, and the sub-cell's own page shows more than the view did there.
 *   One request. (A view that holds h places beyond its cap shows them in the sub-cell with
 *   probability about 1 - exp(-h k / T) for k of its places there.) A full page of places the view
 *   showed leaves no room for a new one: a deeper sub-cell is probed instead, once (cover.ts).
 * - Views proven capped at the same count three times in a row: the cap is that count (`cap`), and
 *   a view that stops there is split without a probe; a view that stops above it proves the cap
 *   moved, and the proof starts again.
 * - Views proven capped at different counts (a cap by region, or one that changed): the caps vary,
 *   and from then on every view that stops at or above 0.9 x the lowest cap ever proven is probed
 *   (a region's cap comes back when the planner reaches the region again), a view that stops at a
 *   count ever proven a cap is split without a probe, and views accepted
 *   unchecked before, at such a count, are probed again (held: the last HELD of them, each with the
 *   sub-cell to probe and its known places' hashes, no sample; nextRecheck).
 *
 * Views the rules accept as complete are still checked where the evidence is thin: before any
 * proof a view stopping at or above 0.8 x the most any view showed so far; after one proof and until
 * the cap is known (or CLEAN probes in a row found their views complete), every view at or above half
 * the lowest proof (a quadrant of a view capped at 130
 * that stops at 90 is capped at 90 as often as complete: read as complete, it hides all of its
 * places beyond 90); once known, a view above it; at or above half the cap, a count the latest such
 * views stopped at too, when it is their highest or HIGH_REPEATS of them did (a new, lower cap shows
 * as the highest count again and again; complete views near the cap share lower ones by chance); below
 * half the cap, a count LOW_REPEATS of the latest such views stopped at (a cap that fell further);
 * and, until the cap is known, one in AUDIT_EVERY of the others above half the cap (drawn from the view's box, so a resumed run draws the same). An audit that
 * finds a capped view means views accepted like it may be capped too: the coverage figure counts
 * the places they likely miss (the audits' share found capped x the places a capped view hid) and
 * says why. The last few accepted views are kept (RING, then HELD without their sample) and split
 * after all when a probe proves their count is a cap.
 *
 * The probe's sub-cell is the one holding the most of the view's places up to a page less twice the
 * noise allowance; where only thin sub-cells are below that (places heaped in a few spots), a
 * sub-cell of the fullest one holding more. The noise allowance is taken for the places the chosen
 * sub-cell holds.
 */
import type { Box } from '../_maps/cells.ts';
import { contains } from '../_maps/cells.ts';
import { PAGE_SIZE } from '../_maps/pb.ts';

/** Probes (and audits) at most this many levels below the view (16 or 64 sub-cells). */
const PROBE_LEVELS = 3;
/** One view in this many of those the rules accept above half the cap is audited, until the cap is
 *  known. Audited after it too (until session 22), a thousand audits over areas-robust's 115 sites
 *  (full scale, paired noise) proved no view capped: a lower cap by region or time stops views at its
 *  count again and again and is probed as a repeat, a higher one shows above the known cap, while
 *  an audit costs its request and, where the noise shows it a place or two the view missed, pages
 *  asked again. */
export const AUDIT_EVERY = 8;
/** Consecutive proofs at one count before it is the cap. */
export const CONFIRM = 3;
/** After one proof, until the cap is known: once this many probes in a row found their views complete,
 *  views are probed as if the proof's count were the cap (at or above it, a repeated count, an
 *  audit) instead of every view at or above half of it. Where the split bet splits nearly every
 *  cell expected near the cap, views rarely saturate again and the cap may never be known: the
 *  first proof alone probed a tenth of the oracle's requests on a tuned population site (cap 100,
 *  σ 0.05), every probe after it finding its view complete. A lower cap elsewhere still shows as
 *  one count repeated (probed), and the views accepted before it are split after all (reopen). */
export const CLEAN = 4;
/** Recent counts kept to spot a repeated one. */
const RECENT = 8;
/** At or above half the cap, a view is probed when this many of the latest RECENT such views stopped
 *  at its count, or one did and none stopped higher (repeatedHigh). Probing at any repeat (until
 *  session 19), complete views held near the cap by the split bet sharing a count by chance were
 *  probed again and again (ten tuned cases at σ ≤ 0.05: 306 probes, 191 with this rule, recall
 *  unchanged). A cap that fell binds the fullest views, so its count is the highest at once (a monitor
 *  whose last run proved 120 on a site now showing 80 found 4% of the places with two repeats and no
 *  more); where older, higher counts are still among the latest, at its third view, the two before
 *  it in the ring and split after all (reopen). */
const HIGH_REPEATS = 2;
/** Below half the cap, a view is probed when this many of the latest RECENT such views stopped at its
 *  count: 2 probed a third of the oracle's requests on a held-out road site at σ 0.2 (probes of
 *  complete views that the noise made look capped, then every view near that count), 3 as many as
 *  without the rule, and a cap falling from 120 to 40 is still caught (session 16). */
const LOW_REPEATS = 3;
/** Accepted views kept, to split after all when their count proves to be a cap. */
export const RING = 4;
/** While caps vary, views stopping at or above this share of the lowest recent cap are probed. */
export const VARY_SHARE = 0.9;

type Pt = [number, number, string, 1?];

/** An accepted view kept to be split after all: its box, depth, sample, count and what it added. */
export interface Kept { b: [number, number, number, number]; d: number; t: number; s: Pt[]; found: number; est: number; fit: boolean;
  /** New places its probe may show that its own ranking noise explains (noiseAllowance). */
  allow?: number;
  /** Accepted after a probe the noise allowance explained: kept to be reopened, but it was checked, so
   *  it is not among `unchecked` (absent on states stored before session 24: counted as unchecked). */
  amb?: true }

/** An accepted view past the ring, kept small for a recheck: no sample, but the sub-cell a probe of
 *  it would ask (`p`) and the hashes of its places there (`h`). */
export interface Held { b: [number, number, number, number]; d: number; t: number; found: number; est: number; fit: boolean; allow: number; p: [number, number, number, number]; h: string[]; amb?: true }
/** Accepted views held past the ring (oldest dropped first; each a few hundred bytes of the state). */
export const HELD = 32;

export interface CapLearn {
  /** The most places a view showed since the cap last moved. */
  hi: number;
  /** Counts of views proven capped, latest first (at most 4). */
  caps: number[];
  /** Counts of the latest views accepted as complete at or above half the cap, latest first. */
  recent: number[];
  /** The same below half the cap (a page or more): a cap that fell below half the one known stops
   *  view after view at one count there too. */
  low?: number[];
  /** Views probed; audits among them and audits that found the view capped. */
  probed: number; audits: number; auditHits: number;
  /** High views accepted without a check (an audit would have drawn from them), by count. */
  unchecked: Record<string, number>;
  /** Every count proven a cap (at most 8). */
  capsEver?: number[];
  /** Places capped views hid (estimated by their probe) and how many such views. */
  hidden: number; hiddenViews: number;
  /** The lowest and highest count ever proven a cap ([0, 0] before any). */
  range: [number, number];
  ring: Kept[];
  /** Unchecked high views past the ring, to reopen when their count proves a cap, or to recheck
   *  with one probe each at the end when the caps varied. */
  held?: Held[];
  /** Views rechecked at the end, and those of them found capped. */
  rechecked?: number; recheckHits?: number;
  /** Probes in a row, after a proof and before the cap is known, that found their view complete. */
  clean?: number;
  /** Counts at which a probe found its view capped by no more new places than the view's own misses
   *  could explain (not a proof: unsureCapped), latest first (at most UNSURE_KEPT). */
  unsure?: number[];
}

export const emptyCapLearn = (): CapLearn => ({ hi: 0, caps: [], recent: [], probed: 0, audits: 0, auditHits: 0, unchecked: {}, hidden: 0, hiddenViews: 0, range: [0, 0], ring: [] });

/** The cap when proven: the same count CONFIRM times in a row. */
export function knownCap(c: CapLearn): number | undefined {
  const [a] = c.caps;
  return a !== undefined && c.caps.length >= CONFIRM && c.caps.slice(0, CONFIRM).every((x) => x === a) ? a : undefined;
}

/** Caps vary: the latest proofs disagree. */
export const capsVary = (c: CapLearn): boolean => knownCap(c) === undefined && new Set(c.caps).size > 1;

/** The cap the planner plans with (a cell expected above ~0.92 of it is split unsearched): the
 *  proven one, else the lowest recent proof; undefined before any view proved capped. */
export function planningCap(c: CapLearn): number | undefined {
  return knownCap(c) ?? (c.caps.length ? Math.min(...c.caps) : undefined);
}

/** A high count: at least half the cap (or of the most a view showed) and a page. */
export const highCount = (c: CapLearn): number => Math.max(PAGE_SIZE, (planningCap(c) ?? c.hi) / 2);

/** What a view that stopped at `t` (having shown `distinct` places) needs: 'capped' (split),
 *  'probe' (or 'audit': a probe the rules would have skipped) or 'complete'. */
export function judge(c: CapLearn, t: number, distinct: number, b: [number, number, number, number]): 'capped' | 'probe' | 'audit' | 'complete' {
  if (distinct > t) return 'capped';
  if (t === 0) return 'complete';
  const cap = knownCap(c);
  if (cap !== undefined && t === cap) return 'capped';
  // The two latest proofs at this very count: a complete view stops there by chance only, and a
  // probe of a capped one can miss what it hides (the cap is known at the third).
  if (c.caps.length >= 2 && c.caps[0] === t && c.caps[1] === t) return 'capped';
  // Caps proven at several counts (by region, or one that changed): a count once proven a cap is
  // one still. A capped view stops there every time, a complete one by chance only, and a probe of a
  // capped one can show nothing new (its hidden places outside the sub-cell: a clustered view of 132
  // places stopping at 100 was read as complete, a quarter of it lost, σ 0.05).
  if (c.range[1] > c.range[0] && (c.capsEver ?? []).includes(t)) return 'capped';
  if (capsVary(c) && t >= VARY_SHARE * Math.min(...c.caps)) return 'probe';
  // Caps proven at two counts (by region, or one that changed): a cap seen once may come back, so
  // every view near the lowest ever proven is probed, whatever the latest proofs agree on.
  if (c.range[1] > c.range[0] && t >= VARY_SHARE * c.range[0]) return 'probe';
  const half = highCount(c);
  // Before any proof, a view near the most any showed (a cap by region shows as several counts);
  // after one, until the cap is known, every high view (a cap seen once says little of the next
  // region's: a view stopping at a lower cap read as complete hides all of its places beyond it);
  // once known, a view above it (the cap moved).
  // After CLEAN probes in a row found their views complete, the lowest proof stands for the cap here.
  const provisional = cap === undefined && c.caps.length > 0 && (c.clean ?? 0) >= CLEAN ? Math.min(...c.caps) : undefined;
  if (t >= (cap ?? provisional ?? (c.caps.length ? half : 0.8 * c.hi))) return 'probe';
  // A count the latest high ones stopped at too, their highest or twice: a new, lower cap stops every
  // view it binds at one count (complete views share lower counts by chance).
  if (t >= half && repeatedHigh(c.recent, t)) return 'probe';
  // Below half the cap, the fourth of the latest few views to stop at one count: complete views' counts
  // spread, a cap's repeat (a cap fell below half the known one: every view was read as complete, a
  // fifth of the places lost and the figure at 0.999, session 16). Only while none of them stopped
  // above it (session 25): a cap binds the fullest views, so its count is the highest, where complete
  // views whose counts lie close together (a uniform site's cells of one size) share counts by chance:
  // 30 probes on a uniform site at σ 0.2, all far under its caps of 100-140.
  if (t < half && t >= PAGE_SIZE) {
    const low = repeats(c.low ?? [], t);
    if (low.at >= LOW_REPEATS && low.top) return 'probe';
  }
  // Audits only while the cap is not known: once it is, a view capped at it is split unprobed, one
  // above it probed, and a lower cap repeats its count (probed above); audits of the rest found none.
  if (cap === undefined && t >= half && drawn(b) % AUDIT_EVERY === 0) return 'audit';
  return 'complete';
}

/** Whether a count `t` at or above half the cap repeats among the latest high counts the way a new,
 *  lower cap makes it: HIGH_REPEATS of them stopped there, or one did and none stopped above it (a
 *  cap binds the fullest views, so its count is the highest; complete views' chance repeats seldom
 *  are). */
function repeatedHigh(recent: readonly number[], t: number): boolean {
  const { at, top } = repeats(recent, t);
  return at >= HIGH_REPEATS || (at >= 1 && top);
}

/** How many of the latest counts stopped at `t`, and whether none stopped above it (a cap's count is
 *  the highest of the views it binds). */
function repeats(latest: readonly number[], t: number): { at: number; top: boolean } {
  return { at: latest.filter((x) => x === t).length, top: !latest.some((x) => x > t) };
}

/** A number drawn from a view's box (the same on a resumed run). */
function drawn(b: number[]): number {
  let h = 0x811c9dc5;
  for (const v of b) h = Math.imul(h ^ Math.round(v * 1e6), 0x01000193);
  return (h >>> 0) % 1009;
}

/** New places a probe of a complete view may still show: the view's requests missed `missed` of its
 *  `t` places (ranking noise), and those lie in a sub-cell of k of its places with chance k / t each;
 *  the count a Poisson of that mean passes with under 5% chance. */
export function noiseAllowance(missed: number, t: number, k = PAGE_SIZE - 1): number {
  if (missed <= 0 || t <= 0) return 0;
  const mu = (missed * k) / t;
  let p = Math.exp(-mu), cum = p;
  for (let x = 0; ; x++) {
    if (1 - cum < 0.05 || x >= missed) return x;
    p *= mu / (x + 1);
    cum += p;
  }
}

/** A full probe page of places its view showed leaves no room for a new one, so it tells nothing: the
 *  sub-cell of `probe` holding at most half a page of the view's places `shown`, to ask once instead
 *  (a root view capped at 60 of 19,000 places was read as complete), or null (cover.ts, paging.ts). */
export function deeperProbe(probe: Box, shown: ReadonlyArray<readonly [number, number, ...unknown[]]>, meets: (b: Box) => boolean, minDeg: number, pageSize: number): Box | null {
  return probeCell(probe, shown.filter((p) => contains(probe, p[0], p[1])), meets, minDeg, Math.floor(pageSize / 2));
}

/** The sub-cell to probe: of the 4, 16 and 64 sub-cells meeting the area, the one holding the most
 *  of the view's places up to `kMax` (one page shows them and at least PAGE_SIZE - kMax more when the
 *  sub-cell holds more); where every sub-cell holding any holds more (places heaped in one spot), the
 *  same within the fullest of the 64, and so on; null when no sub-cell holds any or the cell is too
 *  small. */
export function probeCell(cell: Box, pts: ReadonlyArray<readonly [number, number, ...unknown[]]>, meets: (b: Box) => boolean, minDeg: number, kMax = PAGE_SIZE - 1): Box | null {
  let best: Box | null = null, bestK = 0;
  let fullest: Box | null = null;
  for (let lv = 1; lv <= PROBE_LEVELS; lv++) {
    const n = 1 << lv;
    const h = (cell.n - cell.s) / n, w = (cell.e - cell.w) / n;
    if (h < minDeg || w < minDeg) break;
    const counts = new Array<number>(n * n).fill(0);
    for (const [lat, lng] of pts) {
      const r = Math.min(n - 1, Math.floor((lat - cell.s) / h)), col = Math.min(n - 1, Math.floor((lng - cell.w) / w));
      if (r >= 0 && col >= 0) counts[r * n + col]! += 1;
    }
    let most = 0;
    for (let i = 0; i < n * n; i++) {
      const k = counts[i]!;
      if (k <= bestK || (k > kMax && k <= most)) continue;
      const r = Math.floor(i / n), col = i % n;
      const sub = { s: cell.s + r * h, w: cell.w + col * w, n: cell.s + (r + 1) * h, e: cell.w + (col + 1) * w };
      if (!meets(sub)) continue;
      if (k > kMax) { most = k; fullest = sub; } else { best = sub; bestK = k; }
    }
    // A sub-cell of this level already holds most of a page: a deeper one would hold fewer.
    if (bestK >= kMax / 2) break;
  }
  if (!fullest) return best;
  // Every sub-cell holding a good share of a page holds more than a page (places heaped in a few
  // spots): a sub-cell of the fullest holds more of them than a thin one outside it (a probe of two
  // known places shows too little to tell a capped view, clustered sites showed).
  if (best && bestK >= kMax / 2) return best;
  const inside = pts.filter(([lat, lng]) => contains(fullest!, lat, lng));
  const deeper = probeCell(fullest, inside, meets, minDeg, kMax);
  if (!deeper || !best) return deeper ?? best;
  return inside.filter(([lat, lng]) => contains(deeper, lat, lng)).length > bestK ? deeper : best;
}

/** Places of a probe page that the view never showed: inside the probe cell and the view's cell. */
export function probeNew<P extends { lat: number; lng: number; h: string }>(page: P[], probe: Box, cell: Box, all: string[]): P[] {
  return page.filter((p) => contains(probe, p.lat, p.lng) && contains(cell, p.lat, p.lng) && !all.includes(p.h));
}

/** A view proven capped at `t`: the cap learns it. `hidden` estimates the places it held beyond t. */
export function provenCapped(c: CapLearn, t: number, hidden: number | undefined, audit: boolean): void {
  c.caps.unshift(t);
  c.caps.length = Math.min(c.caps.length, 4);
  if (t > c.hi) c.hi = t;
  c.range = c.range[1] ? [Math.min(c.range[0], t), Math.max(c.range[1], t)] : [t, t];
  const ever = (c.capsEver ??= []);
  if (!ever.includes(t)) { ever.unshift(t); ever.length = Math.min(ever.length, 8); }
  if (audit) c.auditHits += 1;
  c.clean = 0;
  if (hidden !== undefined) { c.hidden += Math.min(t, hidden); c.hiddenViews += 1; }
}

/** Unsure finds remembered (unsureCapped): a cap repeats within a few views; older counts would make
 *  chance stops near them split. */
const UNSURE_KEPT = 4;

/** A probe found its view capped, but by no more new places than its own misses could explain: not
 *  taught (a false proof at a new count makes every view near it probed), but remembered, since a
 *  complete view stops at a given count by chance only: a second view capped at that count is proof
 *  (a site of 10 a page misses a tenth of a view's places, and its first two caps went untaught), and
 *  a weak probe there does not clear a view (weakProbe). */
export function unsureCapped(c: CapLearn, t: number): void {
  const u = (c.unsure ??= []);
  u.unshift(t);
  u.length = Math.min(u.length, UNSURE_KEPT);
}

/** A count a view was found capped at, proven or not. */
export const cappedBefore = (c: CapLearn, t: number): boolean => (c.capsEver ?? []).includes(t) || (c.unsure ?? []).includes(t);

/** Whether a probe's sub-cell, holding `before` of the view's places, could not have told a capped view
 *  by more new places than `allow`: were the view to show two thirds of its places, the sub-cell's page
 *  (`ps` places) would show about half as many new ones as it showed, room permitting. On a site of 10
 *  a page whose pages miss a tenth of a view's places the allowance leaves room for a sub-cell of 2 or 3
 *  (a view of 215 places stopping at the cap 110 read as complete: a 2.1-point overclaim). */
export function weakProbe(before: number, ps: number, allow: number): boolean {
  return Math.min(ps - before, before / 2) <= allow + 1;
}

/** A probe found its view complete (after a proof, before the cap is known: CLEAN): `clear` when it
 *  showed no new place at all; one showing new places its view's own noise explains proves nothing
 *  either way, and the count starts again. */
export function probedComplete(c: CapLearn, clear: boolean): void {
  if (knownCap(c) === undefined && c.caps.length) c.clean = clear ? (c.clean ?? 0) + 1 : 0;
}

/** A view accepted as complete at `t` (checked or not). */
export function accepted(c: CapLearn, t: number, checked: boolean): void {
  const cap = knownCap(c);
  // A view showing more than the cap proves the cap moved: the proof starts again.
  if (cap !== undefined && t > cap) c.caps.length = 0;
  if (t > c.hi) c.hi = t;
  if (t >= highCount(c)) {
    c.recent.unshift(t);
    c.recent.length = Math.min(c.recent.length, RECENT);
    if (!checked) c.unchecked[t] = (c.unchecked[t] ?? 0) + 1;
  } else if (t >= PAGE_SIZE) c.low = [t, ...(c.low ?? [])].slice(0, RECENT);
}

/** Kept views whose count is now a proven cap: taken out of the ring and the held ones, to be split
 *  after all (a held view without its sample). */
export function reopen(c: CapLearn, t: number): Kept[] {
  const held = (c.held ?? []).filter((k) => k.t === t);
  const out: Kept[] = c.ring.filter((k) => k.t === t).concat(held.map(({ b, d, t, found, est, fit, amb }) => ({ b, d, t, s: [], found, est, fit, ...(amb ? { amb } : {}) })));
  uncount(c, t, out.filter((k) => !k.amb).length);
  c.ring = c.ring.filter((k) => k.t !== t);
  if (held.length) c.held = c.held!.filter((k) => k.t !== t);
  return out;
}

/** Views accepted unchecked at `t` that are now settled (reopened or rechecked): no longer among the
 *  unchecked ones the coverage figure counts as likely capped. */
export function uncount(c: CapLearn, t: number, n: number): void {
  if (n > 0 && c.unchecked[t]) c.unchecked[t] = Math.max(0, c.unchecked[t]! - n);
}

/** A view leaving the ring is held without its sample: the sub-cell a probe would ask (chosen from
 *  the sample as for any probe) and its places' hashes there. Null when it has no such sub-cell. */
export function toHeld(k: Kept, meets: (b: Box) => boolean, minDeg: number): Held | null {
  const allow = k.allow ?? 0;
  const cell = { s: k.b[0], w: k.b[1], n: k.b[2], e: k.b[3] };
  const first = probeCell(cell, k.s, meets, minDeg, Math.max(PAGE_SIZE / 4, PAGE_SIZE - 1 - 2 * allow));
  if (!first) return null;
  // A view accepted after an unclear probe was probed there already: its recheck asks a deeper
  // sub-cell (a view that shows more than the first did), not that probe's URL again.
  const p = (k.amb && deeperProbe(first, k.s, meets, minDeg, PAGE_SIZE)) || first;
  return { b: k.b, d: k.d, t: k.t, found: k.found, est: k.est, fit: k.fit, allow, p: [p.s, p.w, p.n, p.e], h: k.s.filter(([lat, lng]) => contains(p, lat, lng)).map((x) => x[2]), ...(k.amb ? { amb: k.amb } : {}) };
}

/** Holds a view (the newest kept, the oldest dropped past HELD). */
export function hold(c: CapLearn, h: Held | null): void {
  if (!h) return;
  const held = (c.held ??= []);
  held.unshift(h);
  held.length = Math.min(held.length, HELD);
}

/** The next held view to recheck: where caps were proven at more than one count, a view accepted
 *  unchecked at or above VARY_SHARE x the lowest may be capped (it was accepted before the lower cap
 *  was seen). Undefined when none is left. */
export function nextRecheck(c: CapLearn): Held | undefined {
  if (!(c.range[1] > c.range[0]) || !c.held?.length) return undefined;
  const i = c.held.findIndex((k) => k.t >= VARY_SHARE * c.range[0]);
  if (i < 0) return undefined;
  return c.held.splice(i, 1)[0];
}

/** Views accepted unchecked at a count some view was proven capped at. */
export function uncheckedAtCaps(c: CapLearn): number {
  return (c.capsEver ?? []).reduce((n, t) => n + (c.unchecked[t] ?? 0), 0);
}

/** Places the accepted, unchecked views likely miss: where audits found views capped, those that
 *  stopped at a count proven a cap x the places a capped view hid on average. */
export function likelyMissed(c: CapLearn): number {
  if (!c.audits || !c.auditHits) return 0;
  const perView = c.hiddenViews ? c.hidden / c.hiddenViews : 0;
  return perView * uncheckedAtCaps(c);
}
