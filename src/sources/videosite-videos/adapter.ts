/**
 * `/videosite-videos` adapter (YouTube, unit `video`, 204 on failure): resolve the channel, browse
 * its Videos or Shorts tab, follow continuation tokens until `limit`.
 */
import type { WebAdapter } from '../_kit/adapter.ts';
import { parse } from './parse.ts';
import { checkChannelQuery, firstStep } from './plan.ts';
import type { VideositeParams, VideositeVideo } from './record.ts';

export const adapter: WebAdapter<VideositeParams, VideositeVideo> = {
  kind: 'web',
  endpoint: '/videosite-videos',
  checkQuery: checkChannelQuery,
  plan: (ctx) => [firstStep(ctx.query, ctx.params?.shorts)],
  parse,
};
