/**
 * Types of `/forum-comments`, derived from the declarations (no mirrored interfaces).
 */
import type { Static } from '@sinclair/typebox';
import type { forumCommentRecord } from '../../contract/records/forum-comments.ts';

export type ForumComment = Static<typeof forumCommentRecord>;

/** The declared sort values; `best` is the site's `confidence` order. */
export type ForumSort = 'best' | 'top' | 'new' | 'controversial' | 'old' | 'qa';

export interface ForumParams {
  sort?: ForumSort;
  /** Extension: comments per query (default: the whole thread up to the operator cap). */
  limit?: number;
}
