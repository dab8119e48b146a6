/**
 * Map place details: the place-node → 2.3 record mapper shared by `/maps/search` (search results and
 * id/URL queries) and the place-details parsers. `mapsPlaceAdapter` resolves one place from an id or
 * a place URL; it is a building block, NOT an interface endpoint: do not put it in the registry
 * (`/maps/search` already accepts these queries).
 */
import type { WebAdapter } from '../_kit/adapter.ts';
import { SourceError } from '../_kit/errors.ts';
import { parsePlaceStep } from './place-parse.ts';
import { placeStep } from './place-step.ts';
import { classifyQuery } from './query.ts';
import type { PlaceRecord } from './record.ts';
import type { MapsSearchParams } from './params.ts';

/** A place lookup reads only the locale of the `/maps/search` parameters. */
export type MapsPlaceParams = Pick<MapsSearchParams, 'language' | 'region'>;

export const mapsPlaceAdapter: WebAdapter<MapsPlaceParams, PlaceRecord> = {
  kind: 'web',
  endpoint: '/maps/place',
  checkQuery(query) {
    const f = classifyQuery(query);
    if (f.form === 'invalid') return f.reason;
    if (f.form === 'phrase') return `"${query}" is not a place id, CID, feature id or place URL`;
    return undefined;
  },
  plan(ctx) {
    const f = classifyQuery(ctx.query);
    if (f.form === 'invalid' || f.form === 'phrase') throw new SourceError('invalid_query', f.form === 'invalid' ? f.reason : 'not a place id or place URL');
    return [placeStep(f, { language: ctx.params?.language || 'en', region: ctx.params?.region ?? null })];
  },
  parse(_step, response, ctx) {
    return parsePlaceStep(response, { query: ctx.query, language: ctx.params?.language ?? 'en', region: ctx.params?.region ?? null });
  },
};

export type { PlaceRecord } from './record.ts';
