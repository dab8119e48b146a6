/**
 * Does a polygon's boundary cross or touch itself? A sweep line (Shamos-Hoey), so the cost is
 * O(n log n) in the edges whatever the shape (issue 39: latitude bands tested every pair of edges
 * sharing a band, and a comb-shaped polygon of 20.9 KB, every tooth in every band, held the API
 * thread 74.7 s).
 *
 * The sweep goes west to east over the edges' endpoints; the edges the line crosses are kept in a
 * treap ordered by latitude at the line. Until the first crossing that order never changes, and the
 * two edges of that crossing are next to each other in it at some endpoint before it, so testing
 * each edge against its neighbours when it enters and leaves, and the two that become neighbours
 * when an edge leaves, finds a crossing when there is one. Two edges that follow each other on a
 * ring share their vertex and are not a crossing; a ring that turns back on itself along the same
 * line (a spike) is one, found apart.
 *
 * @example
 *   firstCrossing([[[0, 0], [1, 1], [1, 0], [0, 1], [0, 0]]]) // 'ring 0: edge 0 meets edge 2 near [0, 0]'
 */
import { segmentsMeet, type Ring } from './shape.ts';

/** Where a polygon's rings cross themselves or each other: the first crossing found, or null. */
export function firstCrossing(poly: Ring[]): string | null {
  let n = 0;
  for (const ring of poly) n += Math.max(0, ring.length - 1);
  // Edge k: left end (x1, y1) (west, then south) and right end (x2, y2); as written: ax, ay → bx, by.
  const x1 = new Float64Array(n), y1 = new Float64Array(n), x2 = new Float64Array(n), y2 = new Float64Array(n);
  const owner = new Int32Array(n), index = new Int32Array(n);
  let k = 0;
  for (let r = 0; r < poly.length; r++) {
    const ring = poly[r]!;
    for (let i = 0; i + 1 < ring.length; i++, k++) {
      const [ax, ay] = ring[i]!, [bx, by] = ring[i + 1]!;
      const swap = bx < ax || (bx === ax && by < ay);
      x1[k] = swap ? bx : ax; y1[k] = swap ? by : ay; x2[k] = swap ? ax : bx; y2[k] = swap ? ay : by;
      owner[k] = r;
      index[k] = i;
    }
  }
  const spike = firstSpike(poly) ?? firstSharedVertex(poly);
  if (spike) return spike;

  const neighbours = (a: number, b: number) => {
    if (owner[a] !== owner[b]) return false;
    const last = poly[owner[a]!]!.length - 2;
    const p = index[a]!, q = index[b]!;
    return Math.abs(p - q) === 1 || (Math.min(p, q) === 0 && Math.max(p, q) === last);
  };
  const meet = (a: number, b: number): string | null => {
    if (a < 0 || b < 0 || a === b || neighbours(a, b)) return null;
    if (!segmentsMeet(x1[a]!, y1[a]!, x2[a]!, y2[a]!, x1[b]!, y1[b]!, x2[b]!, y2[b]!)) return null;
    const [i, j] = a < b ? [a, b] : [b, a];
    const where = owner[i] === owner[j] ? `ring ${owner[i]}` : `rings ${owner[i]} and ${owner[j]}`;
    const at = poly[owner[i]!]![index[i]!]!;
    return `${where}: edge ${index[i]} meets edge ${index[j]} near [${at[0]}, ${at[1]}]`;
  };

  // Events 2k (edge k enters at its left end) and 2k + 1 (leaves at its right end), west to east,
  // south to north, exits before entries at one point: an edge compared as it leaves has a side west
  // of the line like every edge still there, one compared as it enters a side east of it. Edges
  // that only share a vertex there are found before the sweep (firstSharedVertex).
  const events = new Int32Array(2 * n);
  for (let e = 0; e < 2 * n; e++) events[e] = e;
  const ex = (e: number) => ((e & 1) ? x2 : x1)[e >> 1]!;
  const ey = (e: number) => ((e & 1) ? y2 : y1)[e >> 1]!;
  events.sort((a, b) => ex(a) - ex(b) || ey(a) - ey(b) || (b & 1) - (a & 1) || a - b);

  // The sweep line's position, and whether the current event is an exit (ties then read to the west).
  let sx = 0, sy = 0, leaving = false;
  const yAt = (s: number) => {
    if (sx === x1[s]) return x1[s] === x2[s] ? Math.min(Math.max(sy, y1[s]!), y2[s]!) : y1[s]!;
    if (sx === x2[s]) return y2[s]!;
    return y1[s]! + ((sx - x1[s]!) * (y2[s]! - y1[s]!)) / (x2[s]! - x1[s]!);
  };
  const slope = (s: number) => (x1[s] === x2[s] ? Infinity : (y2[s]! - y1[s]!) / (x2[s]! - x1[s]!));
  /** Order of two edges on the line: by latitude there, then (edges meeting on it) by slope, east of
   *  the line for an entry and west of it for an exit, then by number. */
  const below = (a: number, b: number): boolean => {
    const ya = yAt(a), yb = yAt(b);
    if (ya !== yb) return ya < yb;
    const sa = slope(a), sb = slope(b);
    if (sa !== sb) return leaving ? sa > sb : sa < sb;
    return a < b;
  };

  const tree = new Treap(n);
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    const s = e >> 1;
    sx = ex(e);
    sy = ey(e);
    leaving = (e & 1) === 1;
    if (!leaving) {
      const [lo, hi] = tree.insert(s, below);
      const why = meet(s, lo) ?? meet(s, hi);
      if (why) return why;
    } else {
      const [lo, hi] = tree.remove(s, below);
      const why = meet(s, lo) ?? meet(s, hi) ?? meet(lo, hi);
      if (why) return why;
    }
  }
  return null;
}

/** Two edges that follow each other on one line and turn back (a spike): they overlap, yet share a vertex. */
function firstSpike(poly: Ring[]): string | null {
  for (let r = 0; r < poly.length; r++) {
    const ring = poly[r]!;
    const m = ring.length - 1;
    for (let i = 0; i < m; i++) {
      const a = ring[(i + m - 1) % m]!, b = ring[i]!, c = ring[i + 1]!;
      const cross = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]);
      const dot = (b[0] - a[0]) * (c[0] - b[0]) + (b[1] - a[1]) * (c[1] - b[1]);
      if (cross === 0 && dot < 0) return `ring ${r}: edge ${(i + m - 1) % m} meets edge ${i} near [${b[0]}, ${b[1]}]`;
    }
  }
  return null;
}

/** A vertex a ring passes twice, or two rings share: edges that are not neighbours meet there. */
function firstSharedVertex(poly: Ring[]): string | null {
  const seen = new Map<string, [number, number]>();
  for (let r = 0; r < poly.length; r++) {
    const ring = poly[r]!;
    for (let i = 0; i + 1 < ring.length; i++) {
      const [x, y] = ring[i]!;
      const k = `${x},${y}`;
      const before = seen.get(k);
      if (before) return before[0] === r ? `ring ${r}: edge ${before[1]} meets edge ${i} near [${x}, ${y}]` : `rings ${before[0]} and ${r}: edge ${before[1]} meets edge ${i} near [${x}, ${y}]`;
      seen.set(k, [r, i]);
    }
  }
  return null;
}

/**
 * The sweep line's edges in order: a treap over edge numbers whose order is a comparison given at
 * each call (it depends on where the line is). Split and merge give an edge's neighbours for free.
 */
class Treap {
  private left: Int32Array;
  private right: Int32Array;
  private pri: Float64Array;
  private root = -1;

  constructor(n: number) {
    this.left = new Int32Array(n).fill(-1);
    this.right = new Int32Array(n).fill(-1);
    this.pri = new Float64Array(n);
    for (let i = 0; i < n; i++) this.pri[i] = Math.random();
  }

  /** Adds `s`; answers its neighbours below and above (-1: none). */
  insert(s: number, below: (a: number, b: number) => boolean): [number, number] {
    const [l, r] = this.split(this.root, (t) => below(t, s));
    const lo = this.last(l), hi = this.first(r);
    this.left[s] = -1;
    this.right[s] = -1;
    this.root = this.merge(this.merge(l, s), r);
    return [lo, hi];
  }

  /** Takes `s` out; answers the neighbours it had below and above. */
  remove(s: number, below: (a: number, b: number) => boolean): [number, number] {
    const [l, rest] = this.split(this.root, (t) => t !== s && below(t, s));
    const [mid, r] = this.split(rest, (t) => t === s);
    // `mid` is s when the order held; anything else went there by a mistaken comparison: keep it.
    const kept = mid === s ? this.merge(this.left[s]!, this.right[s]!) : mid;
    const lo = this.last(l), hi = this.first(kept >= 0 ? kept : r);
    this.root = this.merge(this.merge(l, kept), r);
    return [lo, hi];
  }

  /** Nodes going left (`goesLeft`, a prefix of the order) and the rest. */
  private split(t: number, goesLeft: (t: number) => boolean): [number, number] {
    if (t < 0) return [-1, -1];
    if (goesLeft(t)) {
      const [a, b] = this.split(this.right[t]!, goesLeft);
      this.right[t] = a;
      return [t, b];
    }
    const [a, b] = this.split(this.left[t]!, goesLeft);
    this.left[t] = b;
    return [a, t];
  }

  private merge(a: number, b: number): number {
    if (a < 0) return b;
    if (b < 0) return a;
    if (this.pri[a]! > this.pri[b]!) {
      this.right[a] = this.merge(this.right[a]!, b);
      return a;
    }
    this.left[b] = this.merge(a, this.left[b]!);
    return b;
  }

  private first(t: number): number {
    if (t < 0) return -1;
    while (this.left[t]! >= 0) t = this.left[t]!;
    return t;
  }

  private last(t: number): number {
    if (t < 0) return -1;
    while (this.right[t]! >= 0) t = this.right[t]!;
    return t;
  }
}
