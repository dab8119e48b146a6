/**
 * The map's background, offline: land, coastlines and country borders (Natural Earth through the
 * world-atlas package, 1:110m when zoomed out, 1:50m closer in) and US state lines (Census, us-atlas),
 * served by this origin as TopoJSON and projected once into Web Mercator. Optionally, under them,
 * raster tiles from the operator's tile server (MAP_TILE_URL; the page is told of it by a meta tag).
 *
 * Coordinates here are "map units": x = longitude in degrees, y = Mercator y scaled to degrees
 * (±180 at the edges of the square world), so one scale (pixels per degree) serves both axes.
 */
import { feature, mesh } from 'topojson-client';
import type { Topology, GeometryObject } from 'topojson-specification';
import type { Geometry, Position } from 'geojson';

const RAD = Math.PI / 180;
/** Pixels per degree beyond which the offline coastline's error (1:50m, a kilometre or two) shows: 1 px ≈ 75 m. */
const APPROXIMATE_ABOVE = 1_500;
/** Mercator y of a latitude, in map units. */
export const mercY = (lat: number) => Math.log(Math.tan(Math.PI / 4 + (Math.max(-85.05, Math.min(85.05, lat)) * RAD) / 2)) / RAD;
export const latOf = (y: number) => (2 * Math.atan(Math.exp(y * RAD)) - Math.PI / 2) / RAD;

/** A projected line or ring: flat [x0, y0, x1, y1, ...] with its bounding box, for culling. */
export interface Line { xy: Float64Array; minX: number; minY: number; maxX: number; maxY: number }
/** A named area (a country or a US state): its rings, for "what is under the cursor". */
interface Region { name: string; rings: Line[]; minX: number; minY: number; maxX: number; maxY: number }
interface Layer { land: Line[]; borders: Line[]; countries: Region[] }

function line(ps: Position[]): Line {
  const xy = new Float64Array(ps.length * 2);
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  ps.forEach(([lng, lat], i) => {
    const x = lng, y = mercY(lat);
    xy[2 * i] = x; xy[2 * i + 1] = y;
    if (x < minX) minX = x; if (x > maxX) maxX = x; if (y < minY) minY = y; if (y > maxY) maxY = y;
  });
  return { xy, minX, minY, maxX, maxY };
}

/**
 * A ring or line as drawn. Where it steps more than 180° of longitude (Russia, Fiji and Antarctica
 * cross the antimeridian) it is the same coast going on past ±180, not a line across the oceans: its
 * longitudes are made continuous, and the part past the edge is drawn again shifted by 360°, on the
 * side where it lies. A ring around a pole (continuous, it ends 360° from where it began) is closed
 * along the pole's edge of the map, in steps of at most 90°.
 * @example unwrap([[179, 65], [-179, 66], [-179, 64], [179, 65]], true).length // 2: east of 180, and shifted to the west side
 */
export function unwrap(ps: Position[], closed: boolean): Position[][] {
  if (!ps.length) return [];
  const out: Position[] = [[ps[0]![0]!, ps[0]![1]!]];
  let shift = 0;
  for (let i = 1; i < ps.length; i++) {
    const d = ps[i]![0]! - ps[i - 1]![0]!;
    if (d > 180) shift -= 360;
    else if (d < -180) shift += 360;
    out.push([ps[i]![0]! + shift, ps[i]![1]!]);
  }
  const first = out[0]!, last = out[out.length - 1]!;
  if (closed && Math.abs(last[0]! - first[0]!) > 180) {
    const pole = out.reduce((s, p) => s + p[1]!, 0) / out.length < 0 ? -90 : 90;
    const steps = Math.ceil(Math.abs(last[0]! - first[0]!) / 90);
    for (let k = 0; k <= steps; k++) out.push([last[0]! + ((first[0]! - last[0]!) * k) / steps, pole]);
  }
  const xs = out.map((p) => p[0]!);
  const copies = [out];
  if (Math.max(...xs) > 180) copies.push(out.map(([x, y]) => [x! - 360, y!]));
  if (Math.min(...xs) < -180) copies.push(out.map(([x, y]) => [x! + 360, y!]));
  return copies;
}

/** The projected lines of a geometry, as drawn (`unwrap`). */
export function linesOf(g: Geometry | null): Line[] {
  if (!g) return [];
  const rings = (rs: Position[][]) => rs.flatMap((r) => unwrap(r, true)).map(line);
  switch (g.type) {
    case 'Polygon': return rings(g.coordinates);
    case 'MultiPolygon': return rings(g.coordinates.flat());
    case 'LineString': return unwrap(g.coordinates, false).map(line);
    case 'MultiLineString': return g.coordinates.flatMap((l) => unwrap(l, false)).map(line);
    case 'GeometryCollection': return g.geometries.flatMap(linesOf);
    default: return [];
  }
}

/** The features of a TopoJSON object (one feature or a collection). */
function featuresOf(topo: Topology, name: string): { geometry: Geometry | null; properties: unknown }[] {
  const fc = feature(topo, topo.objects[name]);
  return 'features' in fc ? fc.features : [fc];
}
const geometriesOf = (topo: Topology, name: string) => featuresOf(topo, name).map((f) => f.geometry);

function regionsOf(topo: Topology, name: string): Region[] {
  return featuresOf(topo, name).map((f) => {
    const rings = linesOf(f.geometry);
    return { name: String((f.properties as { name?: string } | null)?.name ?? ''), rings,
      minX: Math.min(...rings.map((r) => r.minX)), minY: Math.min(...rings.map((r) => r.minY)), maxX: Math.max(...rings.map((r) => r.maxX)), maxY: Math.max(...rings.map((r) => r.maxY)) };
  });
}

const loads = new Map<string, Promise<Topology>>();
const topology = (name: string) => {
  let p = loads.get(name);
  if (!p) {
    p = fetch(`/app/assets/${name}`).then((r) => (r.ok ? r.json() as Promise<Topology> : Promise.reject(new Error(`${name}: ${r.status}`))));
    p.catch(() => loads.delete(name));
    loads.set(name, p);
  }
  return p;
};

const layers = new Map<string, Promise<Layer>>();
/** A world layer (world-110m.json or world-50m.json), loaded and projected once per page. */
function worldLayer(name: string): Promise<Layer> {
  let p = layers.get(name);
  if (!p) {
    p = topology(name).then((t) => ({
      land: geometriesOf(t, 'land').flatMap(linesOf),
      borders: linesOf(mesh(t, t.objects.countries as GeometryObject, (a, b) => a !== b)),
      countries: regionsOf(t, 'countries'),
    }));
    layers.set(name, p);
  }
  return p;
}

let states: Promise<{ lines: Line[]; regions: Region[] }> | null = null;
function usStates() {
  states ??= topology('us-states.json').then((t) => ({ lines: linesOf(mesh(t, t.objects.states as GeometryObject, (a, b) => a !== b)), regions: regionsOf(t, 'states') }));
  return states;
}

/** The operator's tile server, if any. */
export function tileServer(): { url: string; attribution: string } | null {
  const m = document.querySelector('meta[name="trawl-map-tiles"]');
  return m ? { url: m.getAttribute('content') ?? '', attribution: m.getAttribute('data-attribution') ?? '' } : null;
}

/** The view: centre in map units and pixels per degree, on a canvas of w × h CSS pixels. */
export interface View { cx: number; cy: number; scale: number; w: number; h: number }
export const toScreen = (v: View, x: number, y: number): [number, number] => [(x - v.cx) * v.scale + v.w / 2, v.h / 2 - (y - v.cy) * v.scale];
export const toMap = (v: View, px: number, py: number): [number, number] => [(px - v.w / 2) / v.scale + v.cx, v.cy - (py - v.h / 2) / v.scale];

/** The wheel zooms about the pointer (the place under it stays under it), the scale kept within `clamp`. */
export function zoomOnWheel(canvas: HTMLCanvasElement, v: View, clamp: (scale: number) => number, draw: () => void): void {
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    const b = canvas.getBoundingClientRect();
    const [mx, my] = toMap(v, e.clientX - b.left, e.clientY - b.top);
    v.scale = clamp(v.scale * (e.deltaY < 0 ? 1.25 : 0.8));
    const [nx, ny] = toMap(v, e.clientX - b.left, e.clientY - b.top);
    v.cx += mx - nx;
    v.cy += my - ny;
    draw();
  }, { passive: false });
}

function pathOf(g: CanvasRenderingContext2D, v: View, lines: Line[], close: boolean) {
  const [x0, y1] = toMap(v, 0, 0);
  const [x1, y0] = toMap(v, v.w, v.h);
  g.beginPath();
  for (const l of lines) {
    if (l.maxX < x0 || l.minX > x1 || l.maxY < y0 || l.minY > y1) continue;
    const xy = l.xy;
    // Points closer than half a pixel to the last drawn one add nothing at this zoom.
    let lx = NaN, ly = NaN;
    for (let i = 0; i < xy.length; i += 2) {
      const px = (xy[i] - v.cx) * v.scale + v.w / 2;
      const py = v.h / 2 - (xy[i + 1] - v.cy) * v.scale;
      if (i === 0) g.moveTo(px, py);
      else if (Math.abs(px - lx) + Math.abs(py - ly) < 0.5 && i < xy.length - 2) continue;
      else g.lineTo(px, py);
      lx = px; ly = py;
    }
    if (close) g.closePath();
  }
}

/**
 * The background of a map, drawn into a canvas on demand; `ready` resolves once the offline
 * layers are loaded (the map redraws then), `onTile` is called as tiles arrive.
 */
export class Basemap {
  private coarse: Layer | null = null;
  private fine: Layer | null = null;
  private us: { lines: Line[]; regions: Region[] } | null = null;
  private tiles = new Map<string, HTMLImageElement>();
  readonly server = tileServer();
  readonly ready: Promise<void>;
  tilesLoaded = 0;
  /** The last view was closer than the offline layers are true to. */
  approximate = false;

  constructor(private onChange: () => void) {
    this.ready = worldLayer('world-110m.json').then((l) => { this.coarse = l; onChange(); });
    void usStates().then((s) => { this.us = s; onChange(); }, () => undefined);
  }

  /** The detailed layer, fetched the first time the view is close enough to need it. */
  private detail(v: View): Layer | null {
    if (v.scale < 8) return this.coarse;
    if (!this.fine) {
      void worldLayer('world-50m.json').then((l) => { if (!this.fine) { this.fine = l; this.onChange(); } }, () => undefined);
      return this.coarse;
    }
    return this.fine;
  }

  draw(g: CanvasRenderingContext2D, v: View): boolean {
    const tiled = this.server ? this.drawTiles(g, v) : false;
    if (!tiled) {
      g.fillStyle = '#dbe8f5';
      g.fillRect(0, 0, v.w, v.h);
    }
    const layer = this.detail(v);
    if (!layer) return false;
    this.approximate = !tiled && v.scale > APPROXIMATE_ABOVE;
    if (this.approximate) {
      // Closer than the 1:50m coastline is true to (a kilometre or two), land and sea are not
      // told apart (a harbour's places would sit "in the sea"): a neutral ground, the coast dashed.
      g.fillStyle = '#f4f3ef';
      g.fillRect(0, 0, v.w, v.h);
      pathOf(g, v, layer.land, true);
      g.setLineDash([6, 4]);
      g.strokeStyle = '#9fb3c8';
      g.lineWidth = 1;
      g.stroke();
      g.setLineDash([]);
    } else if (!tiled) {
      pathOf(g, v, layer.land, true);
      g.fillStyle = '#f7f5ef';
      g.fill('evenodd');
      g.strokeStyle = '#9fb3c8';
      g.lineWidth = 0.8;
      g.stroke();
    }
    if (this.us && v.scale > 3) {
      pathOf(g, v, this.us.lines, false);
      g.strokeStyle = tiled ? 'rgba(80, 90, 110, .45)' : '#c9ccd3';
      g.setLineDash([4, 3]);
      g.lineWidth = 0.8;
      g.stroke();
      g.setLineDash([]);
    }
    pathOf(g, v, layer.borders, false);
    g.strokeStyle = tiled ? 'rgba(60, 70, 90, .6)' : '#8d94a3';
    g.lineWidth = 1;
    g.stroke();
    return true;
  }

  private drawTiles(g: CanvasRenderingContext2D, v: View): boolean {
    const z = Math.max(0, Math.min(19, Math.round(Math.log2((360 * v.scale) / 256))));
    const n = 2 ** z;
    const size = (360 / n) * v.scale;
    const [x0, y1] = toMap(v, 0, 0);
    const [x1, y0] = toMap(v, v.w, v.h);
    const col = (x: number) => Math.floor(((x + 180) / 360) * n);
    const row = (y: number) => Math.floor(((180 - y) / 360) * n);
    g.fillStyle = '#e5e3df';
    g.fillRect(0, 0, v.w, v.h);
    for (let ty = Math.max(0, row(y1)); ty <= Math.min(n - 1, row(y0)); ty++) {
      for (let tx = col(x0); tx <= col(x1); tx++) {
        const wx = ((tx % n) + n) % n;
        const src = this.server!.url.replace('{z}', String(z)).replace('{x}', String(wx)).replace('{y}', String(ty));
        let img = this.tiles.get(src);
        if (!img) {
          img = new Image();
          img.onload = () => { this.tilesLoaded++; this.onChange(); };
          img.src = src;
          if (this.tiles.size > 400) this.tiles.clear();
          this.tiles.set(src, img);
        }
        if (!img.complete || !img.naturalWidth) continue;
        const [px, py] = toScreen(v, (tx / n) * 360 - 180, 180 - (ty / n) * 360);
        g.drawImage(img, px, py, size + 0.5, size + 0.5);
      }
    }
    return true;
  }

  /** The country (and US state) at a map position, for the hover label. */
  regionAt(x: number, y: number, v: View): string {
    const inside = (r: Region) => x >= r.minX && x <= r.maxX && y >= r.minY && y <= r.maxY && r.rings.reduce((n, ring) => n + (contains(ring.xy, x, y) ? 1 : 0), 0) % 2 === 1;
    const country = (this.detail(v) ?? this.coarse)?.countries.find(inside)?.name ?? '';
    const state = country === 'United States of America' ? this.us?.regions.find(inside)?.name : undefined;
    return [state, country].filter(Boolean).join(', ');
  }
}

/** Even-odd ray casting on a flat ring. */
function contains(xy: Float64Array, x: number, y: number): boolean {
  let c = false;
  for (let i = 0, j = xy.length - 2; i < xy.length; j = i, i += 2) {
    const yi = xy[i + 1], yj = xy[j + 1];
    if ((yi > y) !== (yj > y) && x < ((xy[j] - xy[i]) * (y - yi)) / (yj - yi) + xy[i]) c = !c;
  }
  return c;
}
