/**
 * An area's shape: polygons with holes (GeoJSON ring order [lng, lat]), with the two questions a
 * covering asks many times, both answered from latitude bands of edges so a country border of
 * thousands of vertices costs a few edge tests per point:
 * - `contains(lat, lng)`: even-odd rule over every ring (holes and islands included);
 * - `meets(box)`: does the box touch the shape at all (a view wholly outside is never searched).
 *
 * @example
 *   const s = shapeOf([[[[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]]]]);
 *   s.contains(5, 5); // true
 *   s.meets({ s: 20, w: 20, n: 30, e: 30 }); // false
 */
import type { Box } from '../../../sources/_kit/area.ts';

export type Ring = Array<[number, number]>;
/** Polygons, each an outer ring then its holes (GeoJSON MultiPolygon coordinates). */
export type Polygons = Ring[][];

export interface Shape {
  bbox: Box;
  /** Vertices over every ring. */
  vertices: number;
  contains(lat: number, lng: number): boolean;
  meets(box: Box): boolean;
}

/** Latitude bands of a shape: about one per two edges (a city's 64-gon gets 32, a country's border
 *  512), so a small shape costs little to build and a large one few edges a band. */
const MAX_BANDS = 512;

interface Edges {
  /** Edge k: (x1, y1) → (x2, y2), lng/lat. */
  xy: Float64Array;
  /** Band b holds the edges list[start[b]] .. list[start[b + 1] - 1], those whose latitude span touches it. */
  start: Uint32Array;
  list: Uint32Array;
  bands: number;
  s: number;
  h: number;
}

function edgesOf(polys: Polygons, bbox: Box): Edges {
  let n = 0;
  for (const poly of polys) for (const ring of poly) n += Math.max(0, ring.length - 1);
  const xy = new Float64Array(4 * n);
  let at = 0;
  for (const poly of polys) for (const ring of poly) {
    for (let i = 0; i + 1 < ring.length; i++, at += 4) {
      xy[at] = ring[i]![0]; xy[at + 1] = ring[i]![1]; xy[at + 2] = ring[i + 1]![0]; xy[at + 3] = ring[i + 1]![1];
    }
  }
  const bands = Math.max(8, Math.min(MAX_BANDS, n >> 1));
  const h = Math.max((bbox.n - bbox.s) / bands, 1e-12);
  const span = (k: number): [number, number] => {
    const lo = Math.min(xy[4 * k + 1]!, xy[4 * k + 3]!), hi = Math.max(xy[4 * k + 1]!, xy[4 * k + 3]!);
    return [Math.max(0, Math.floor((lo - bbox.s) / h)), Math.min(bands - 1, Math.floor((hi - bbox.s) / h))];
  };
  // Two passes: count each band's edges, then place them (one array for all bands).
  const start = new Uint32Array(bands + 1);
  for (let k = 0; k < n; k++) { const [b0, b1] = span(k); for (let b = b0; b <= b1; b++) start[b + 1]! += 1; }
  for (let b = 0; b < bands; b++) start[b + 1]! += start[b]!;
  const list = new Uint32Array(start[bands]!);
  const fill = start.slice(0, bands);
  for (let k = 0; k < n; k++) { const [b0, b1] = span(k); for (let b = b0; b <= b1; b++) list[fill[b]!++] = k; }
  return { xy, start, list, bands, s: bbox.s, h };
}

function bboxOf(polys: Polygons): Box {
  const b = { s: Infinity, w: Infinity, n: -Infinity, e: -Infinity };
  for (const poly of polys) for (const ring of poly) for (const [x, y] of ring) {
    if (y < b.s) b.s = y;
    if (y > b.n) b.n = y;
    if (x < b.w) b.w = x;
    if (x > b.e) b.e = x;
  }
  return b;
}

/** Even-odd crossings of a ray going east from the point. */
function inside(E: Edges, lat: number, lng: number): boolean {
  const b = Math.max(0, Math.min(E.bands - 1, Math.floor((lat - E.s) / E.h)));
  let odd = false;
  for (let i = E.start[b]!, end = E.start[b + 1]!; i < end; i++) {
    const k = 4 * E.list[i]!;
    const x1 = E.xy[k]!, y1 = E.xy[k + 1]!, x2 = E.xy[k + 2]!, y2 = E.xy[k + 3]!;
    if ((y1 > lat) !== (y2 > lat) && lng < x1 + ((lat - y1) * (x2 - x1)) / (y2 - y1)) odd = !odd;
  }
  return odd;
}

/** Do segments p1p2 and p3p4 cross or touch (collinear overlaps included)? */
export function segmentsMeet(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): boolean {
  const d1 = (dx - cx) * (ay - cy) - (dy - cy) * (ax - cx);
  const d2 = (dx - cx) * (by - cy) - (dy - cy) * (bx - cx);
  const d3 = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  const d4 = (bx - ax) * (dy - ay) - (by - ay) * (dx - ax);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  const on = (px: number, py: number, qx: number, qy: number, rx: number, ry: number) =>
    Math.min(px, qx) <= rx && rx <= Math.max(px, qx) && Math.min(py, qy) <= ry && ry <= Math.max(py, qy);
  return (d1 === 0 && on(cx, cy, dx, dy, ax, ay)) || (d2 === 0 && on(cx, cy, dx, dy, bx, by))
    || (d3 === 0 && on(ax, ay, bx, by, cx, cy)) || (d4 === 0 && on(ax, ay, bx, by, dx, dy));
}

function edgeMeetsBox(E: Edges, box: Box): boolean {
  const b0 = Math.max(0, Math.floor((box.s - E.s) / E.h));
  const b1 = Math.min(E.bands - 1, Math.floor((box.n - E.s) / E.h));
  const sides: Array<[number, number, number, number]> = [
    [box.w, box.s, box.e, box.s], [box.e, box.s, box.e, box.n], [box.e, box.n, box.w, box.n], [box.w, box.n, box.w, box.s],
  ];
  for (let b = b0; b <= b1; b++) {
    for (let i = E.start[b]!, end = E.start[b + 1]!; i < end; i++) {
      const k = 4 * E.list[i]!;
      const x1 = E.xy[k]!, y1 = E.xy[k + 1]!, x2 = E.xy[k + 2]!, y2 = E.xy[k + 3]!;
      if (x1 >= box.w && x1 <= box.e && y1 >= box.s && y1 <= box.n) return true;
      for (const [a, c, d, e] of sides) if (segmentsMeet(x1, y1, x2, y2, a, c, d, e)) return true;
    }
  }
  return false;
}

/**
 * A shape over GeoJSON polygon coordinates (rings closed, [lng, lat]); `extra` narrows `contains`
 * further (a region known only through its places, see resolve.ts).
 */
export function shapeOf(polys: Polygons, extra?: (lat: number, lng: number) => boolean): Shape {
  const bbox = bboxOf(polys);
  const E = edgesOf(polys, bbox);
  const contains = (lat: number, lng: number) =>
    lat >= bbox.s && lat <= bbox.n && lng >= bbox.w && lng <= bbox.e && inside(E, lat, lng) && (!extra || extra(lat, lng));
  return {
    bbox,
    vertices: polys.reduce((n, p) => n + p.reduce((m, r) => m + r.length, 0), 0),
    contains,
    meets(box) {
      if (box.n < bbox.s || box.s > bbox.n || box.e < bbox.w || box.w > bbox.e) return false;
      const c = { lat: (box.s + box.n) / 2, lng: (box.w + box.e) / 2 };
      return inside(E, c.lat, c.lng) || edgeMeetsBox(E, box);
    },
  };
}

/** A circle as a 64-gon (radius in km), for places known by a point. */
export function circle(lat: number, lng: number, km: number): Ring {
  const ring: Ring = [];
  const dLat = km / 111.32;
  const dLng = km / (111.32 * Math.max(0.05, Math.cos((lat * Math.PI) / 180)));
  for (let i = 0; i < 64; i++) {
    const a = (2 * Math.PI * i) / 64;
    ring.push([lng + dLng * Math.cos(a), lat + dLat * Math.sin(a)]);
  }
  ring.push(ring[0]!);
  return ring;
}
