/**
 * Map cells for going past the ~120 places one search view returns: a saturated view is split into
 * four quadrants (each half the height and width: zoom + 1, see `_kit/area.ts`), recursively, until
 * the wanted number of places is reached or a cell stops being full. This file adds the map
 * product's camera geometry (viewport, altitude, zoom).
 */

import { center, type Box } from '../_kit/area.ts';

export { center, contains, quadrants, type Box } from '../_kit/area.ts';

/** Viewport in pixels we ask the search for (a common desktop map). */
export const VIEW_W = 1024;
export const VIEW_H = 768;
/** Vertical field of view in degrees, the `y` of the product's `@lat,lng,<alt>a,<fov>y` URLs. */
export const FOV_DEG = 13.1;

const M_PER_DEG = 111_320;
const M_PER_PX_Z0 = 156_543.033_92; // metres per pixel at zoom 0 on the equator

function cosLat(lat: number): number {
  return Math.max(0.01, Math.cos((lat * Math.PI) / 180));
}

const clampLat = (v: number) => Math.max(-85, Math.min(85, v));
const clampLng = (v: number) => Math.max(-180, Math.min(180, v));

/**
 * The box a `@lat,lng,zoomz` camera shows in a VIEW_W x VIEW_H viewport.
 *
 * @example
 *   viewBox(38, 23.7, 14) // { s: 37.99..., w: 23.67..., n: 38.00..., e: 23.72... }
 */
export function viewBox(lat: number, lng: number, zoom: number): Box {
  const mpp = (M_PER_PX_Z0 * cosLat(lat)) / 2 ** zoom;
  const halfH = ((VIEW_H / 2) * mpp) / M_PER_DEG;
  const halfW = ((VIEW_W / 2) * mpp) / (M_PER_DEG * cosLat(lat));
  return { s: clampLat(lat - halfH), w: clampLng(lng - halfW), n: clampLat(lat + halfH), e: clampLng(lng + halfW) };
}

/** Height in metres of the ground the viewport must show so that the whole box fits. */
function viewHeightMetres(b: Box): number {
  const c = center(b);
  const h = (b.n - b.s) * M_PER_DEG;
  const w = (b.e - b.w) * M_PER_DEG * cosLat(c.lat);
  return Math.max(h, (w * VIEW_H) / VIEW_W, 1);
}

/**
 * Camera altitude (metres) that shows the box with the FOV_DEG field of view: the `!1d` of the pb.
 *
 * @example
 *   altitudeFor(viewBox(34.67, 33.04, 17)) // ~3281 (the product's own place page uses 3281a,13.1y)
 */
export function altitudeFor(b: Box): number {
  return viewHeightMetres(b) / (2 * Math.tan(((FOV_DEG / 2) * Math.PI) / 180));
}

/** The zoom level whose viewport shows the box (fractional). */
export function zoomFor(b: Box): number {
  const c = center(b);
  return Math.log2((VIEW_H * M_PER_PX_Z0 * cosLat(c.lat)) / viewHeightMetres(b));
}

/** Quadrants narrower than this (degrees, about 55 m) are not split further (an area's views and a
 *  plain search's alike). */
export const MIN_CELL_DEG = 0.0005;
/** A cell whose quadrants would be narrower than MIN_CELL_DEG. */
export const tooSmallToSplit = (b: Box) => b.n - b.s < 2 * MIN_CELL_DEG || b.e - b.w < 2 * MIN_CELL_DEG;

/** Box grown by 1% of its span (at least 1e-5 deg) and to `minSpan` per side. */
export function grow(b: Box, minSpan = 0.002): Box {
  let { s, w, n, e } = b;
  const padLat = Math.max((n - s) * 0.01, 1e-5);
  const padLng = Math.max((e - w) * 0.01, 1e-5);
  s -= padLat; n += padLat; w -= padLng; e += padLng;
  if (n - s < minSpan) { const m = (n + s) / 2; s = m - minSpan / 2; n = m + minSpan / 2; }
  if (e - w < minSpan) { const m = (e + w) / 2; w = m - minSpan / 2; e = m + minSpan / 2; }
  return { s: clampLat(s), w: clampLng(w), n: clampLat(n), e: clampLng(e) };
}
