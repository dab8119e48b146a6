/**
 * Records with coordinates as points on a canvas: Web Mercator, fitted to the points, a graticule
 * for orientation, wheel to zoom and drag to pan, the record's name on hover. No tiles and no
 * network: it works offline and on any deployment.
 */
import { h } from './dom.ts';
import type { Row } from './table.ts';

interface Pt { x: number; y: number; label: string }

const num = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN);
const mercY = (lat: number) => Math.log(Math.tan(Math.PI / 4 + (Math.max(-85, Math.min(85, lat)) * Math.PI) / 360));

/** The points of the rows that have latitude/longitude (or lat/lng). */
export function pointsOf(rows: Row[]): Pt[] {
  const out: Pt[] = [];
  for (const r of rows) {
    const lat = num(r.latitude ?? r.lat);
    const lng = num(r.longitude ?? r.lng ?? r.lon);
    if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) continue;
    out.push({ x: lng, y: mercY(lat), label: String(r.name ?? r.address ?? r.full_address ?? r.query ?? `${lat}, ${lng}`) });
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

export function recordMap(rows: Row[]): HTMLElement {
  const pts = pointsOf(withQueryCoordinates(rows));
  const canvas = h('canvas', { 'aria-label': `map of ${pts.length} points` });
  const tip = h('div.tip');
  const box = h('div.map', { dataset: { points: String(pts.length) } }, canvas, tip);
  if (!pts.length) return h('p.muted', null, 'No record of this result has coordinates.');
  // View: centre (x in degrees of longitude, y in mercator units) and scale (pixels per degree).
  const xs = pts.map((p) => p.x);
  const ys = pts.map((p) => p.y);
  let cx = (Math.min(...xs) + Math.max(...xs)) / 2;
  let cy = (Math.min(...ys) + Math.max(...ys)) / 2;
  let scale = 0;
  const rad = Math.PI / 180;

  function draw() {
    const w = canvas.clientWidth || 800;
    const hgt = canvas.clientHeight || 480;
    const dpr = window.devicePixelRatio || 1;
    if (canvas.width !== w * dpr) { canvas.width = w * dpr; canvas.height = hgt * dpr; }
    if (!scale) {
      const spanX = Math.max(Math.max(...xs) - Math.min(...xs), 0.01);
      const spanY = Math.max((Math.max(...ys) - Math.min(...ys)) / rad, 0.01);
      scale = Math.min((w * 0.85) / spanX, (hgt * 0.85) / spanY);
    }
    const g = canvas.getContext('2d')!;
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.fillStyle = '#eef4fb';
    g.fillRect(0, 0, w, hgt);
    // Graticule: a step that gives a handful of lines whatever the zoom.
    const stepDeg = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30].find((s) => s * scale > 60) ?? 30;
    g.strokeStyle = '#d5e1ee';
    g.fillStyle = '#8aa2bd';
    g.font = '11px system-ui';
    g.lineWidth = 1;
    const left = cx - w / 2 / scale;
    const right = cx + w / 2 / scale;
    for (let lng = Math.ceil(left / stepDeg) * stepDeg; lng <= right; lng += stepDeg) {
      const x = (lng - cx) * scale + w / 2;
      g.beginPath(); g.moveTo(x, 0); g.lineTo(x, hgt); g.stroke();
      g.fillText(`${+lng.toFixed(3)}°`, x + 3, hgt - 4);
    }
    const top = cy + hgt / 2 / scale * rad;
    const bottom = cy - hgt / 2 / scale * rad;
    const toLat = (y: number) => (2 * Math.atan(Math.exp(y)) - Math.PI / 2) / rad;
    for (let lat = Math.ceil(toLat(bottom) / stepDeg) * stepDeg; lat <= toLat(top); lat += stepDeg) {
      const y = hgt / 2 - ((mercY(lat) - cy) / rad) * scale;
      g.beginPath(); g.moveTo(0, y); g.lineTo(w, y); g.stroke();
      g.fillText(`${+lat.toFixed(3)}°`, 4, y - 3);
    }
    g.fillStyle = 'rgba(37, 99, 235, 0.8)';
    g.strokeStyle = '#fff';
    for (const p of pts) {
      const x = (p.x - cx) * scale + w / 2;
      const y = hgt / 2 - ((p.y - cy) / rad) * scale;
      if (x < -5 || y < -5 || x > w + 5 || y > hgt + 5) continue;
      g.beginPath(); g.arc(x, y, 4, 0, 2 * Math.PI); g.fill(); g.stroke();
    }
  }

  let drag: { x: number; y: number } | null = null;
  canvas.addEventListener('mousedown', (e) => { drag = { x: e.clientX, y: e.clientY }; });
  window.addEventListener('mouseup', () => { drag = null; });
  canvas.addEventListener('mousemove', (e) => {
    if (drag) {
      cx -= (e.clientX - drag.x) / scale;
      cy += ((e.clientY - drag.y) / scale) * rad;
      drag = { x: e.clientX, y: e.clientY };
      draw();
      return;
    }
    const r = canvas.getBoundingClientRect();
    const mx = e.clientX - r.left;
    const my = e.clientY - r.top;
    const hit = pts.find((p) => Math.hypot((p.x - cx) * scale + r.width / 2 - mx, r.height / 2 - ((p.y - cy) / rad) * scale - my) < 6);
    tip.style.display = hit ? 'block' : 'none';
    if (hit) { tip.textContent = hit.label; tip.style.left = `${mx + 10}px`; tip.style.top = `${my + 10}px`; }
  });
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    scale *= e.deltaY < 0 ? 1.25 : 0.8;
    draw();
  }, { passive: false });
  requestAnimationFrame(draw);
  return box;
}
