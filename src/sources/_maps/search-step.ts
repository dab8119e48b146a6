/**
 * The first page of a map search: what `/maps/search`, `/maps/reviews` (phrase queries) and
 * `/engine-places-by-domain` all start from.
 */
import type { Step } from '../_kit/adapter.ts';
import { viewBox } from './cells.ts';
import type { SearchSettings } from './params.ts';
import type { Camera } from './query.ts';
import { searchStep } from './state.ts';

/** With no camera, the first view is the whole world: the phrase's own location decides. */
const WORLD: Camera = { lat: 0, lng: 0, zoom: 2 };

/**
 * The first page of a map search.
 *
 * @example
 *   firstSearchStep('coffee athens', settings, null).url
 */
export function firstSearchStep(q: string, s: SearchSettings, camera: Camera | null): Step {
  const given = camera ?? s.camera;
  const cam = given ?? WORLD;
  const view = viewBox(cam.lat, cam.lng, cam.zoom);
  return searchStep({
    q,
    hl: s.language,
    gl: s.region,
    view,
    cell: null,
    offset: 0,
    got: 0,
    budget: s.limit,
    depth: 0,
    pts: [],
    area: given ? view : null,
  });
}
