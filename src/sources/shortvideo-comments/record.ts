/**
 * Types of `/shortvideo-comments`, derived from the declaration (no mirrored interfaces).
 */
import type { Static } from '@sinclair/typebox';
import type { shortvideoCommentRecord } from '../../contract/records/shortvideo-comments.ts';
import type { ParamsOf } from '../../contract/endpoint.ts';
import type { shortvideoComments } from '../../contract/endpoints/reviews.ts';

export type ShortvideoComment = Static<typeof shortvideoCommentRecord>;

/** `cursor` resumes where a record's next_page_cursor points. */
export type ShortvideoParams = ParamsOf<typeof shortvideoComments>;
