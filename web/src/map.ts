/**
 * Records with coordinates as points on a map: Web Mercator on a canvas, over offline borders and
 * coastlines (basemap.ts) or the operator's tiles, fitted to the points; wheel or buttons to zoom,
 * drag to pan, and on hover the record's name, category and address (or, off the points, the
 * country and US state under the cursor).
 */
import { h } from './dom.ts';
import type { Row } from './table.ts';
import { Basemap, mercY, toMap, toScreen, zoomOnWheel, type View } from './basemap.ts';

interface Pt { x: number; y: number; label: string; detail: string }

const num = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN);
const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : '');

/** The points of the rows that have latitude/longitude (or lat/lng). */
export function pointsOf(rows: Row[]): Pt[] {
  const out: Pt[] = [];
  for (const r of rows) {
    const lat = num(r.latitude ?? r.lat);
    const lng = num(r.longitude ?? r.lng ?? r.lon);
    if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) continue;
    const address = text(r.full_address) || text(r.address) || [text(r.city), text(r.state), text(r.country_code)].filter(Boolean).join(', ');
    const label = text(r.name) || address || text(r.query) || `${lat}, ${lng}`;
    out.push({ x: lng, y: mercY(lat), label, detail: [text(r.category), address === label ? '' : address].filter(Boolean).join(' · ') });
  }
  return out;
}

/** Rows that carry coordinates in their query ("lat lng" or "lat,lng", as reverse geocoding takes). */
export function withQueryCoordinates(rows: Row[]): Row[] {
  return rows.map((r) => {
    if (r.latitude !== undefined || typeof r.query !== 'string') return r;
    const m = r.query.match(/^\s*(-?\d+(?:\.\d+)?)\s*[ ,]\s*(-?\d+(?:\.\d+)?)\s*$/);
    return m ? { ...r, latitude: Number(m[1]), longitude: Number(m[2]) } : r;
  });
}

export function recordMap(rows: Row[], empty = 'No record of this result has coordinates.'): HTMLElement {
  const pts = pointsOf(withQueryCoordinates(rows));
  if (!pts.length) return h('p.muted', null, empty);
  const canvas = h('canvas', { 'aria-label': `map of ${pts.length} points` });
  const tip = h('div.tip');
  const zoomBy = (f: number) => { v.scale = clampScale(v.scale * f); draw(); };
  const basemap = new Basemap(() => draw());
  const note = h('div.legend-note', null, 'Coastlines are approximate at this zoom (an operator can add a street map: MAP_TILE_URL)');
  const box = h('div.map', { dataset: { points: String(pts.length) } }, canvas, tip, note,
    h('div.map-zoom', null, h('button', { type: 'button', title: 'Zoom in', onclick: () => zoomBy(1.6) }, '+'), h('button', { type: 'button', title: 'Zoom out', onclick: () => zoomBy(1 / 1.6) }, '−'),
      h('button', { type: 'button', title: 'Fit the points', onclick: () => { v.scale = 0; draw(); } }, '⤢')),
    basemap.server ? h('div.attribution', null, basemap.server.attribution || new URL(basemap.server.url.replace(/[{}]/g, '')).host) : h('div.attribution', null, 'Borders: Natural Earth, US Census'));
  const xs = pts.map((p) => p.x);
  const ys = pts.map((p) => p.y);
  const v: View = { cx: (Math.min(...xs) + Math.max(...xs)) / 2, cy: (Math.min(...ys) + Math.max(...ys)) / 2, scale: 0, w: 800, h: 480 };
  const clampScale = (s: number) => Math.max(v.w / 400, Math.min(2e6, s));

  let frame = 0;
  function draw() {
    if (frame) return;
    frame = requestAnimationFrame(() => { frame = 0; paint(); });
  }
  function paint() {
    v.w = canvas.clientWidth || 800;
    v.h = canvas.clientHeight || 480;
    const dpr = window.devicePixelRatio || 1;
    if (canvas.width !== Math.round(v.w * dpr) || canvas.height !== Math.round(v.h * dpr)) { canvas.width = Math.round(v.w * dpr); canvas.height = Math.round(v.h * dpr); }
    if (!v.scale) {
      // Fit the points; a single place (or a cluster) opens at about city scale, not closer.
      const spanX = Math.max(Math.max(...xs) - Math.min(...xs), 0.05);
      const spanY = Math.max(Math.max(...ys) - Math.min(...ys), 0.05);
      v.cx = (Math.min(...xs) + Math.max(...xs)) / 2;
      v.cy = (Math.min(...ys) + Math.max(...ys)) / 2;
      v.scale = clampScale(Math.min((v.w * 0.85) / spanX, (v.h * 0.85) / spanY));
    }
    const g = canvas.getContext('2d')!;
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    if (basemap.draw(g, v)) box.dataset.drawn = basemap.server ? 'tiles' : 'borders';
    note.style.display = basemap.approximate ? 'block' : 'none';
    box.dataset.tiles = String(basemap.tilesLoaded);
    g.fillStyle = 'rgba(37, 99, 235, 0.85)';
    g.strokeStyle = '#fff';
    g.lineWidth = 1.2;
    const r = pts.length > 2000 ? 2.5 : 4.5;
    for (const p of pts) {
      const [x, y] = toScreen(v, p.x, p.y);
      if (x < -5 || y < -5 || x > v.w + 5 || y > v.h + 5) continue;
      g.beginPath(); g.arc(x, y, r, 0, 2 * Math.PI); g.fill(); g.stroke();
    }
  }

  let drag: { x: number; y: number } | null = null;
  canvas.addEventListener('pointerdown', (e) => { drag = { x: e.clientX, y: e.clientY }; canvas.setPointerCapture(e.pointerId); });
  canvas.addEventListener('pointerup', () => { drag = null; });
  canvas.addEventListener('pointermove', (e) => {
    if (drag) {
      v.cx -= (e.clientX - drag.x) / v.scale;
      v.cy += (e.clientY - drag.y) / v.scale;
      drag = { x: e.clientX, y: e.clientY };
      tip.style.display = 'none';
      draw();
      return;
    }
    const b = canvas.getBoundingClientRect();
    const mx = e.clientX - b.left;
    const my = e.clientY - b.top;
    let hit: Pt | undefined;
    let best = 8;
    for (const p of pts) {
      const [x, y] = toScreen(v, p.x, p.y);
      const d = Math.hypot(x - mx, y - my);
      if (d < best) { best = d; hit = p; }
    }
    const region = hit ? '' : basemap.regionAt(...toMap(v, mx, my), v);
    tip.replaceChildren(...(hit ? [h('strong', null, hit.label), hit.detail ? h('div', null, hit.detail) : ''] : region ? [region] : []));
    tip.dataset.kind = hit ? 'place' : 'region';
    tip.style.display = hit || region ? 'block' : 'none';
    tip.style.left = `${Math.min(mx + 12, b.width - 220)}px`;
    tip.style.top = `${my + 12}px`;
  });
  canvas.addEventListener('pointerleave', () => { tip.style.display = 'none'; });
  zoomOnWheel(canvas, v, clampScale, draw);
  new ResizeObserver(() => draw()).observe(canvas);
  draw();
  return box;
}

/**
 * An area query's views as it runs: the views still to search (boxes [south, west, north, east],
 * the next one filled) over the offline borders; `update` redraws with the latest progress.
 */
export function viewsMap(): { el: HTMLElement; update(planned: number[][]): void } {
  const canvas = h('canvas', { 'aria-label': 'views still to search' });
  const el = h('div.map.views-map', { dataset: { views: '0' } }, canvas, h('div.attribution', null, 'Borders: Natural Earth, US Census'));
  const basemap = new Basemap(() => paint());
  const v: View = { cx: 0, cy: 0, scale: 0, w: 800, h: 320 };
  let boxes: number[][] = [];
  function paint() {
    v.w = canvas.clientWidth || 800;
    v.h = canvas.clientHeight || 320;
    const dpr = window.devicePixelRatio || 1;
    if (canvas.width !== Math.round(v.w * dpr)) { canvas.width = Math.round(v.w * dpr); canvas.height = Math.round(v.h * dpr); }
    const g = canvas.getContext('2d')!;
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    if (basemap.draw(g, v)) el.dataset.drawn = 'borders';
    boxes.forEach(([s, w, n, e], i) => {
      const [x0, y0] = toScreen(v, w, mercY(s));
      const [x1, y1] = toScreen(v, e, mercY(n));
      g.fillStyle = i === 0 ? 'rgba(245, 158, 11, .45)' : 'rgba(37, 99, 235, .08)';
      g.strokeStyle = i === 0 ? '#b54708' : 'rgba(37, 99, 235, .6)';
      g.lineWidth = 1;
      g.fillRect(x0, y1, x1 - x0, y0 - y1);
      g.strokeRect(x0, y1, x1 - x0, y0 - y1);
    });
  }
  return {
    el,
    update(planned: number[][]) {
      boxes = planned;
      el.dataset.views = String(planned.length);
      if (planned.length && !v.scale) {
        // Fit the first boxes seen: the area's root views span it.
        const w = Math.min(...planned.map((b) => b[1])), e = Math.max(...planned.map((b) => b[3]));
        const s = mercY(Math.min(...planned.map((b) => b[0]))), n = mercY(Math.max(...planned.map((b) => b[2])));
        v.cx = (w + e) / 2; v.cy = (s + n) / 2;
        v.scale = Math.min(((canvas.clientWidth || 800) * 0.9) / Math.max(e - w, 1e-3), ((canvas.clientHeight || 320) * 0.9) / Math.max(n - s, 1e-3));
      }
      requestAnimationFrame(paint);
    },
  };
}
