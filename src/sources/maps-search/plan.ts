/**
 * `/maps/search` plan: one query → its first steps. A phrase (or a map search URL) becomes the first
 * page of a map search; a place id, CID, feature id or place URL becomes one place-details step; a
 * short link becomes a step that follows its redirect.
 */
import type { QueryContext, Step } from '../_kit/adapter.ts';
import { SourceError } from '../_kit/errors.ts';
import { placeStep } from '../maps-place/plan.ts';
import { classifyQuery, type Camera } from '../maps-place/query.ts';
import { viewBox } from './cells.ts';
import { searchSettings, type MapsSearchParams, type SearchSettings } from './params.ts';
import { searchStep } from './state.ts';

/** With no camera, the first view is the whole world: the phrase's own location decides. */
const WORLD: Camera = { lat: 0, lng: 0, zoom: 2 };

/**
 * The first page of a map search.
 *
 * @example
 *   firstSearchStep('coffee athens', settings).url
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

/**
 * @example
 *   planMapsSearch({ query: 'coffee athens', params: { limit: 100 } })
 *   // [{ kind: 'search', url: 'https://www.google.com/search?tbm=map&...', expect: 'xssi-json', state: {...} }]
 */
export function planMapsSearch(ctx: QueryContext<MapsSearchParams>): Step[] {
  const s = searchSettings(ctx.params);
  const form = classifyQuery(ctx.query);
  switch (form.form) {
    case 'invalid':
      throw new SourceError('invalid_query', form.reason);
    case 'phrase':
      return [firstSearchStep(form.q, s, form.camera ?? null)];
    default:
      return [placeStep(form, { language: s.language, region: s.region })];
  }
}

/**
 * Submit-time check (adapter `checkQuery`): a message for a query this endpoint cannot run.
 *
 * @example
 *   checkMapsQuery('  ')                       // 'query is empty'
 *   checkMapsQuery('https://example.com/menu') // 'URL of another site (example.com); ...'
 */
export function checkMapsQuery(query: string): string | undefined {
  const f = classifyQuery(query);
  return f.form === 'invalid' ? f.reason : undefined;
}
