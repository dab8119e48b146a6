/**
 * `/engine-maps-autocomplete`: one request per query to the map search box's suggest endpoint,
 *   https://www.google.com/s?tbm=map&gs_ri=maps&suggest=p&authuser=0&hl=..&gl=..&pb=..&q=..
 * The `pb` must carry a camera (a bare `q` is refused by the endpoint): `!4m12!1m3!1d<height in
 * metres>!2d<lng>!3d<lat>!2m3!1f0!2f0!3f0!3m2!1i<width px>!2i<height px>!4f<fov>`, preceded by
 * `!2i<how many suggestions>` and followed by `!7i20!10b1`.
 */
import type { QueryContext, Step } from '../_kit/adapter.ts';
import { SourceError } from '../_kit/errors.ts';
import { parseCamera, type Camera } from '../_maps/query.ts';
import { VIEW_H, VIEW_W } from '../_maps/cells.ts';
import { DEFAULT_COORDINATES, type AutocompleteParams } from './record.ts';

/**
 * The camera of the request: the first item of the `coordinates` parameter (the adapter sees one
 * query at a time and cannot pair items with queries), else the default.
 * Throws `invalid_query` for a value that is not `@lat,lng,zoomz`.
 * @example cameraOf({ coordinates: ['@40.7,-74,12z'] }) // { lat: 40.7, lng: -74, zoom: 12 }
 */
export function cameraOf(p: AutocompleteParams | undefined): Camera {
  const raw = p?.coordinates?.[0];
  const cam = parseCamera(raw || DEFAULT_COORDINATES);
  if (!cam) throw new SourceError('invalid_query', `coordinates must look like @<latitude>,<longitude>,<zoom>z, got ${JSON.stringify(raw)}`);
  return cam;
}

/**
 * Height in metres of a 768-pixel view at that zoom and latitude (web-mercator ground resolution).
 * @example viewHeightMetres({ lat: 0, lng: 0, zoom: 10 }) // ≈ 117407
 */
export function viewHeightMetres(c: Camera): number {
  return (156543.03392 * Math.cos((c.lat * Math.PI) / 180) * VIEW_H) / 2 ** c.zoom;
}

/**
 * @example suggestUrl('pizza', { lat: 40.7, lng: -74, zoom: 12 }, { language: 'en', region: 'US' })
 *   // 'https://www.google.com/s?tbm=map&gs_ri=maps&suggest=p&authuser=0&hl=en&gl=us&pb=!2i10!4m12!1m3!1d...&q=pizza'
 */
export function suggestUrl(q: string, c: Camera, p: AutocompleteParams = {}): string {
  const pb = `!2i10!4m12!1m3!1d${viewHeightMetres(c).toFixed(2)}!2d${c.lng}!3d${c.lat}!2m3!1f0!2f0!3f0!3m2!1i${VIEW_W}!2i${VIEW_H}!4f13.1!7i20!10b1`;
  const gl = p.region ? `&gl=${encodeURIComponent(p.region.toLowerCase())}` : '';
  return `https://www.google.com/s?tbm=map&gs_ri=maps&suggest=p&authuser=0&hl=${encodeURIComponent(p.language || 'en')}${gl}&pb=${pb}&q=${encodeURIComponent(q)}`;
}

/** @example plan({ query: 'pizza', params: {} })[0].kind // 'suggest' */
export function plan(ctx: QueryContext<AutocompleteParams>): Step[] {
  const q = ctx.query.trim();
  if (!q) throw new SourceError('invalid_query', 'query is empty');
  return [{ kind: 'suggest', url: suggestUrl(q, cameraOf(ctx.params), ctx.params ?? {}), expect: 'text' }];
}
