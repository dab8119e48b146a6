/**
 * `/shortvideo-comments` adapter (unit `comment`): video links, short links or ids → the video's
 * top-level comments, paged by the site's cursor (the runner applies `limit_per_query`).
 *
 * @example
 *   const [step] = adapter.plan({ query: '7603296357641735445', params: { limit_per_query: 50 } });
 *   const { records, next } = adapter.parse(step, response, ctx);
 */
import type { WebAdapter } from '../_kit/adapter.ts';
import { parse } from './parse.ts';
import { plan } from './plan.ts';
import { classifyQuery } from './query.ts';
import type { ShortvideoComment, ShortvideoParams } from './record.ts';

export const adapter: WebAdapter<ShortvideoParams, ShortvideoComment> = {
  kind: 'web',
  endpoint: '/shortvideo-comments',
  checkQuery: (q) => {
    const c = classifyQuery(q);
    return typeof c === 'string' ? c : undefined;
  },
  plan,
  parse,
};
