/**
 * `/forum-comments` adapter (Reddit, unit `comment`): thread page, then every "more" stub expanded in
 * place (morechildren, "continue this thread" pages), one record per comment in thread order.
 */
import type { WebAdapter } from '../_kit/adapter.ts';
import { parse } from './parse.ts';
import { checkForumQuery, firstStep } from './plan.ts';
import type { ForumComment, ForumParams } from './record.ts';

export const adapter: WebAdapter<ForumParams, ForumComment> = {
  kind: 'web',
  endpoint: '/forum-comments',
  checkQuery: checkForumQuery,
  plan: (ctx) => [firstStep(ctx.query, ctx.params?.sort)],
  parse,
};
