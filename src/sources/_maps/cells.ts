/**
 * Map cells for going past the ~120 places one search view returns: a saturated view is split into
 * four quadrants (each half the height and width: zoom + 1), recursively, until the wanted number of
 * places is reached or a cell stops being full. Quadrants are half-open boxes
 * (`s <= lat < n`, `w <= lng < e`), so sibling cells never share a place.
 */

export interface Box {
  s: number;
  w: number;
  n: number;
  e: number;
}

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

export function center(b: Box): { lat: number; lng: number } {
  return { lat: (b.s + b.n) / 2, lng: (b.w + b.e) / 2 };
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

/**
 * The four quadrants, always in the order SW, SE, NW, NE.
 *
 * @example
 *   quadrants({ s: 0, w: 0, n: 2, e: 2 })[3] // { s: 1, w: 1, n: 2, e: 2 }
 */
export function quadrants(b: Box): [Box, Box, Box, Box] {
  const mLat = (b.s + b.n) / 2;
  const mLng = (b.w + b.e) / 2;
  return [
    { s: b.s, w: b.w, n: mLat, e: mLng },
    { s: b.s, w: mLng, n: mLat, e: b.e },
    { s: mLat, w: b.w, n: b.n, e: mLng },
    { s: mLat, w: mLng, n: b.n, e: b.e },
  ];
}

/** Half-open containment: a point on a shared edge belongs to exactly one quadrant. */
export function contains(b: Box, lat: number, lng: number): boolean {
  return lat >= b.s && lat < b.n && lng >= b.w && lng < b.e;
}

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
