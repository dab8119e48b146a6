/**
 * Areas a client draws: a bounding box `west,south,east,north` (GeoJSON bbox order, degrees) or a
 * GeoJSON Polygon / MultiPolygon (bare, in a Feature, or the polygons of a FeatureCollection).
 * Every refusal is a message naming what is wrong; the caller turns it into a 422.
 *
 * @example
 *   polygonsOfText('23.6,37.9,23.8,38.1') // [[[[23.6, 37.9], [23.8, 37.9], [23.8, 38.1], [23.6, 38.1], [23.6, 37.9]]]]
 *   polygonsOfText('{"type":"Point","coordinates":[0,0]}') // 'area GeoJSON must be a Polygon or MultiPolygon, got Point'
 */
import type { Polygons, Ring } from './shape.ts';
import { firstCrossing } from './crossing.ts';

/** Largest area text read (a GeoJSON shape); bigger is refused before parsing. */
export const MAX_AREA_BYTES = 1_000_000;
/** Most vertices over every ring (the self-crossing check and each view's tests scale with it). */
export const MAX_VERTICES = 100_000;

const NUM = String.raw`\s*(-?\d+(?:\.\d+)?)\s*`;
const BOX = new RegExp(`^${NUM},${NUM},${NUM},${NUM}$`);

export function looksLikeBox(text: string): boolean {
  return BOX.test(text);
}

function boxPolygons(text: string): Polygons | string {
  const [w, s, e, n] = BOX.exec(text)!.slice(1).map(Number) as [number, number, number, number];
  if (s < -90 || n > 90 || s > 90 || n < -90) return `area box latitudes must be from -90 to 90, got south ${s}, north ${n}`;
  if (w < -180 || e > 180 || w > 180 || e < -180) return `area box longitudes must be from -180 to 180, got west ${w}, east ${e}`;
  if (s >= n) return `area box south (${s}) must be below north (${n}); the order is west,south,east,north`;
  if (w >= e) return `area box west (${w}) must be less than east (${e}); a box across the antimeridian is two boxes (a MultiPolygon)`;
  if (e - w > 180) return `area box spans ${e - w}° of longitude; at most 180° (split it into two boxes, a MultiPolygon)`;
  return [[[[w, s], [e, s], [e, n], [w, n], [w, s]]]];
}

function ringOf(v: unknown, where: string): Ring | string {
  if (!Array.isArray(v)) return `${where} must be an array of positions`;
  if (v.length < 4) return `${where} has ${v.length} positions; a ring needs at least 4 (the last equal to the first)`;
  const ring: Ring = [];
  for (let i = 0; i < v.length; i++) {
    const p = v[i];
    if (!Array.isArray(p) || typeof p[0] !== 'number' || typeof p[1] !== 'number' || !Number.isFinite(p[0]) || !Number.isFinite(p[1])) {
      return `${where} position ${i} is not [longitude, latitude]`;
    }
    if (p[0] < -180 || p[0] > 180 || p[1] < -90 || p[1] > 90) return `${where} position ${i} [${p[0]}, ${p[1]}] is outside -180..180, -90..90`;
    ring.push([p[0], p[1]]);
  }
  const [a, b] = [ring[0]!, ring[ring.length - 1]!];
  if (a[0] !== b[0] || a[1] !== b[1]) return `${where} is not closed: its last position must equal its first`;
  let west = Infinity, east = -Infinity;
  for (const [x] of ring) { west = Math.min(west, x); east = Math.max(east, x); }
  if (east - west > 180) return `${where} spans ${east - west}° of longitude; at most 180° (a shape across the antimeridian is two polygons)`;
  return ring;
}

function polygonOf(v: unknown, where: string): Ring[] | string {
  if (!Array.isArray(v) || v.length === 0) return `${where} must be an array of rings`;
  const rings: Ring[] = [];
  for (let i = 0; i < v.length; i++) {
    const r = ringOf(v[i], `${where} ring ${i}`);
    if (typeof r === 'string') return r;
    rings.push(r);
  }
  const crossing = firstCrossing(rings);
  return crossing ? `area ${where} crosses itself (${crossing})` : rings;
}

function geometryPolygons(g: unknown, where: string): Polygons | string {
  if (!g || typeof g !== 'object') return `${where} must be a GeoJSON object`;
  const { type, coordinates } = g as { type?: unknown; coordinates?: unknown };
  if (type === 'Polygon') {
    const p = polygonOf(coordinates, `${where} polygon`);
    return typeof p === 'string' ? p : [p];
  }
  if (type === 'MultiPolygon') {
    if (!Array.isArray(coordinates) || coordinates.length === 0) return `${where} MultiPolygon needs at least one polygon`;
    const out: Polygons = [];
    for (let i = 0; i < coordinates.length; i++) {
      const p = polygonOf(coordinates[i], `${where} polygon ${i}`);
      if (typeof p === 'string') return p;
      out.push(p);
    }
    return out;
  }
  return `area GeoJSON must be a Polygon or MultiPolygon, got ${typeof type === 'string' ? type : 'no type'}`;
}

function geoJsonPolygons(text: string): Polygons | string {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return `area is not valid JSON: ${(e as Error).message}`;
  }
  const o = v as { type?: unknown; geometry?: unknown; features?: unknown };
  if (o && o.type === 'Feature') return geometryPolygons(o.geometry, 'GeoJSON feature');
  if (o && o.type === 'FeatureCollection') {
    if (!Array.isArray(o.features) || o.features.length === 0) return 'area FeatureCollection has no features';
    const out: Polygons = [];
    for (let i = 0; i < o.features.length; i++) {
      const p = geometryPolygons((o.features[i] as { geometry?: unknown } | null)?.geometry, `GeoJSON feature ${i}`);
      if (typeof p === 'string') return p;
      out.push(...p);
    }
    return out;
  }
  return geometryPolygons(v, 'GeoJSON');
}

/**
 * A drawn area's polygons, or the message a 422 carries.
 */
export function polygonsOfText(text: string): Polygons | string {
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_AREA_BYTES) return `area is ${(bytes / 1e6).toFixed(1)} MB; a shape may be at most ${MAX_AREA_BYTES / 1e6} MB (simplify it)`;
  const polys = looksLikeBox(text) ? boxPolygons(text) : geoJsonPolygons(text);
  if (typeof polys === 'string') return polys;
  const vertices = polys.reduce((n, p) => n + p.reduce((m, r) => m + r.length, 0), 0);
  if (vertices > MAX_VERTICES) return `area has ${vertices} vertices; at most ${MAX_VERTICES} (simplify it)`;
  return polys;
}
