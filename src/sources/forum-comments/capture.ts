/**
 * `trawl parse /forum-comments <file>`: the comments one saved answer holds, in thread order.
 * Reads a thread page (`/comments/<id>.json`, with or without `context`; 2016 to 2025 layouts) and
 * a morechildren answer (`{json: {data: {things}}}`). Stubs ("load more") are not followed: a file
 * is one answer. In a morechildren answer depths count from the answer's first comment (its own
 * `depth` when served, else 0) and the post title is unknown (null).
 */
import { SourceError } from '../_kit/errors.ts';
import { commentListingOf, moreEntries, postOf, walk, type Entry, type PostInfo } from './tree.ts';
import { moreThings } from './parse.ts';
import type { ForumComment } from './record.ts';

export function parseCapture(text: string): ForumComment[] {
  let j: unknown;
  try {
    j = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    throw new Error('forum-comments: expected a JSON thread page or morechildren answer');
  }
  const entries: Entry[] = [];
  try {
    if (Array.isArray(j)) {
      const post = postOf(j, null);
      const listing = commentListingOf(j);
      if (!post || !listing) throw new Error('forum-comments: a JSON array but not [post listing, comment listing]');
      walk(listing, 0, null, post, '', entries);
    } else if (j && typeof j === 'object' && 'json' in j) {
      const things = moreThings(j);
      const first = (things.find((t: any) => t?.kind === 't1') as any)?.data ?? {};
      const linkId = typeof first.link_id === 'string' ? first.link_id.replace(/^t3_/, '') : '';
      const post: PostInfo = { id: linkId, title: null, community: typeof first.subreddit === 'string' ? first.subreddit : null, author: null, permalink: null };
      if (post.community && linkId) post.permalink = `/r/${post.community}/comments/${linkId}/_/`;
      const depth = typeof first.depth === 'number' ? first.depth : 0;
      entries.push(...moreEntries(things, { parent: null, depth, ids: [], count: 0 }, post, ''));
    } else {
      throw new Error('forum-comments: expected a thread page ([post listing, comment listing]) or a morechildren answer ({json: ...})');
    }
  } catch (e) {
    throw e instanceof SourceError ? new Error(`forum-comments: ${e.message}`) : e;
  }
  return entries.flatMap((e) => ('r' in e ? [e.r] : []));
}
