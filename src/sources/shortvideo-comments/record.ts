/**
 * Types of `/shortvideo-comments`, derived from the declaration (no mirrored interfaces).
 */
import type { Static } from '@sinclair/typebox';
import type { shortvideoCommentRecord } from '../../contract/records/shortvideo-comments.ts';

export type ShortvideoComment = Static<typeof shortvideoCommentRecord>;

/** The endpoint's parameters as the adapter reads them (`cursor` resumes, decision 23). */
export interface ShortvideoParams {
  limit_per_query?: number;
  cursor?: string;
}
