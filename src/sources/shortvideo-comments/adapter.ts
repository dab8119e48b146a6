/**
 * `/shortvideo-comments` adapter (unit `comment`): video links, short links or ids → the video's
 * top-level comments, paged by the site's cursor up to `limit_per_query`.
 *
 * @example
 *   const [step] = adapter.plan({ query: '7603296357641735445', params: { limit_per_query: 50 } });
 *   const { records, next, cursor } = adapter.parse(step, response, ctx);
 */
import type { WebAdapter } from '../_kit/adapter.ts';
import { parseWith } from './parse.ts';
import { planWith } from './plan.ts';
import { classifyQuery } from './query.ts';
import type { ShortvideoComment, ShortvideoParams } from './record.ts';
import { shortvideoSettings, type ShortvideoSettings } from './settings.ts';

/** The adapter with these operator settings (tests pass their own). */
export function makeAdapter(settings: ShortvideoSettings): WebAdapter<ShortvideoParams, ShortvideoComment> {
  return {
    kind: 'web',
    endpoint: '/shortvideo-comments',
    unit: 'comment',
    checkQuery: (q) => {
      const c = classifyQuery(q);
      return typeof c === 'string' ? c : undefined;
    },
    plan: planWith(settings),
    parse: parseWith(settings),
  };
}

export const adapter = makeAdapter(shortvideoSettings(process.env));
