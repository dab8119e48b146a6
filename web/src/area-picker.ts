/**
 * The Run page's area (the `area` parameter of /maps/search, docs/areas.md) picked three ways: a
 * location searched in GET /locations of a country, a box drawn on the map (drag; the wheel zooms),
 * or pasted GeoJSON. Each fills the one text the parameter takes; the text stays editable.
 */
import { h, mount, errorBox } from './dom.ts';
import { api } from './api.ts';
import { Basemap, latOf, mercY, toMap, toScreen, zoomOnWheel, type View } from './basemap.ts';

interface Loc { title: string; value: string; children?: Loc[] }

/** Every value of a /locations answer with its path of titles ("Nevada › Las Vegas"). */
export function flatten(items: Loc[], path: string[] = []): { label: string; value: string }[] {
  return items.flatMap((l) => [{ label: [...path, l.title].join(' › '), value: l.value }, ...flatten(l.children ?? [], [...path, l.title])]);
}

/** A box as the parameter reads it: west,south,east,north, 4 decimals (about 10 m). */
export const boxValue = (w: number, s: number, e: number, n: number) => [w, s, e, n].map((x) => x.toFixed(4)).join(',');

export function areaPicker(input: HTMLInputElement): HTMLElement {
  const mode = h('div.row.area-modes', { role: 'tablist' });
  const pane = h('div.area-pane');
  const modes: Record<string, () => HTMLElement> = { 'A location': locationPane, 'A box on the map': () => boxPane(input), GeoJSON: () => geoJsonPane(input) };
  const show = (name: string) => {
    [...mode.children].forEach((b) => b.classList.toggle('active', b.textContent === name));
    mount(pane, modes[name]());
  };
  for (const name of Object.keys(modes)) mode.appendChild(h('button', { type: 'button', role: 'tab', onclick: () => show(name) }, name));
  show('A location');
  return h('div.area-picker', null, mode, pane);

  function locationPane(): HTMLElement {
    const country = h('input', { type: 'text', id: 'area-country', placeholder: 'Country code, e.g. US', maxLength: 2, 'aria-label': 'country code', style: 'max-width:170px' });
    const search = h('input', { type: 'text', id: 'area-search', placeholder: 'Region or city, e.g. Nevada', 'aria-label': 'search a location', disabled: true });
    const list = h('div.area-results', { id: 'area-results' });
    let all: { label: string; value: string }[] = [];
    const render = () => {
      const q = search.value.trim().toLowerCase();
      const hits = (q ? all.filter((l) => l.label.toLowerCase().includes(q)) : all).slice(0, 12);
      mount(list, hits.map((l) => h('button.link', { type: 'button', dataset: { value: l.value }, onclick: () => { input.value = l.value; input.dispatchEvent(new Event('input', { bubbles: true })); mount(list, h('span.muted', null, `Area: ${l.label}`)); } }, l.label)));
    };
    country.addEventListener('change', async () => {
      const cc = country.value.trim().toUpperCase();
      if (!/^[A-Z]{2}$/.test(cc)) return;
      try {
        const r = await api().json<{ items: Loc[] }>('GET', '/locations', { query: { country: cc } });
        all = [{ label: cc, value: cc }, ...flatten(r.items)];
        search.disabled = false;
        search.focus();
        render();
      } catch (e) { mount(list, errorBox(e)); }
    });
    search.addEventListener('input', render);
    return h('div', null, h('div.row', null, country, search), list);
  }
}

function geoJsonPane(input: HTMLInputElement): HTMLElement {
  const text = h('textarea', { id: 'area-geojson', placeholder: '{"type": "Polygon", "coordinates": [[[lng, lat], ...]]}', 'aria-label': 'GeoJSON', style: 'min-height:80px' });
  text.addEventListener('input', () => { input.value = text.value.trim(); input.dispatchEvent(new Event('input', { bubbles: true })); });
  return h('div', null, text, h('div.help', null, 'A GeoJSON Polygon or MultiPolygon (or a Feature of one), longitude before latitude; it is checked when the request is sent.'));
}

/** A map to drag a box on: the drag's corners become west,south,east,north. */
function boxPane(input: HTMLInputElement): HTMLElement {
  const canvas = h('canvas', { id: 'area-map', 'aria-label': 'drag to draw the area' });
  const v: View = { cx: 0, cy: 20, scale: 0, w: 800, h: 320 };
  let box: [number, number, number, number] | null = null;
  const m = /^(-?[\d.]+),(-?[\d.]+),(-?[\d.]+),(-?[\d.]+)$/.exec(input.value.trim());
  if (m) box = [Number(m[1]), mercY(Number(m[2])), Number(m[3]), mercY(Number(m[4]))];
  const base = new Basemap(() => draw());
  const wrap = h('div.map.area-map', { dataset: { box: '' } }, canvas);
  let frame = 0;
  const draw = () => { if (!frame) frame = requestAnimationFrame(() => { frame = 0; paint(); }); };
  function paint() {
    v.w = canvas.clientWidth || 800;
    v.h = canvas.clientHeight || 320;
    if (!v.scale) v.scale = v.w / 360;
    const dpr = window.devicePixelRatio || 1;
    if (canvas.width !== Math.round(v.w * dpr)) { canvas.width = Math.round(v.w * dpr); canvas.height = Math.round(v.h * dpr); }
    const g = canvas.getContext('2d')!;
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    if (base.draw(g, v)) wrap.dataset.drawn = 'borders';
    if (box) {
      const [x0, y0] = toScreen(v, box[0], box[1]);
      const [x1, y1] = toScreen(v, box[2], box[3]);
      g.fillStyle = 'rgba(37, 99, 235, .15)';
      g.strokeStyle = '#2563eb';
      g.lineWidth = 2;
      g.fillRect(x0, y1, x1 - x0, y0 - y1);
      g.strokeRect(x0, y1, x1 - x0, y0 - y1);
    }
  }
  let start: [number, number] | null = null;
  const at = (e: PointerEvent) => { const b = canvas.getBoundingClientRect(); return toMap(v, e.clientX - b.left, e.clientY - b.top); };
  canvas.addEventListener('pointerdown', (e) => { start = at(e); canvas.setPointerCapture(e.pointerId); });
  canvas.addEventListener('pointermove', (e) => {
    if (!start) return;
    const [x, y] = at(e);
    box = [Math.max(-180, Math.min(start[0], x)), Math.min(start[1], y), Math.min(180, Math.max(start[0], x)), Math.max(start[1], y)];
    draw();
  });
  canvas.addEventListener('pointerup', () => {
    start = null;
    if (!box || box[2] - box[0] < 1e-4) return;
    input.value = boxValue(box[0], latOf(box[1]), box[2], latOf(box[3]));
    wrap.dataset.box = input.value;
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  zoomOnWheel(canvas, v, (x) => Math.max(v.w / 400, Math.min(2e6, x)), draw);
  new ResizeObserver(() => draw()).observe(canvas);
  return h('div', null, wrap, h('div.help', null, 'Drag to draw the box; the wheel zooms about the pointer.'));
}
