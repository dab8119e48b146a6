/**
 * Types of `/forum-comments`, derived from the declarations (no mirrored interfaces).
 */
import type { Static } from '@sinclair/typebox';
import type { forumCommentRecord } from '../../contract/records/forum-comments.ts';
import type { ParamsOf } from '../../contract/endpoint.ts';
import type { forumComments } from '../../contract/endpoints/reviews.ts';

export type ForumComment = Static<typeof forumCommentRecord>;

/** `limit` absent: the whole thread up to the operator cap. */
export type ForumParams = ParamsOf<typeof forumComments>;
/** The declared sort values; `best` is the site's `confidence` order. */
export type ForumSort = NonNullable<ForumParams['sort']>;
