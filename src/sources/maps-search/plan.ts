/**
 * `/maps/search` plan: one query → its first steps. A phrase (or a map search URL) becomes the first
 * page of a map search; a place id, CID, feature id or place URL becomes one place-details step; a
 * short link becomes a step that follows its redirect.
 */
import type { QueryContext, Step } from '../_kit/adapter.ts';
import { SourceError } from '../_kit/errors.ts';
import { placeStep } from '../_maps/place-step.ts';
import { classifyQuery } from '../_maps/query.ts';
import { searchSettings, type MapsSearchParams } from '../_maps/params.ts';
import { firstSearchStep } from '../_maps/search-step.ts';
import { firstAreaStep } from './cover.ts';
import { priorOf } from './prior.ts';

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
    case 'phrase': {
      if (ctx.params.area) return [firstAreaStep(form.q, ctx, s)];
      const step = firstSearchStep(form.q, s, form.camera ?? null);
      // A monitor's run: what its previous runs proved of the view cap (./prior.ts, paging.ts).
      const prior = priorOf(ctx);
      return [prior ? { ...step, state: { ...step.state, prior } } : step];
    }
    default:
      return [placeStep(form, { language: s.language, region: s.region })];
  }
}
