/**
 * Record of `GET /shortvideo-comments` (issue 10, decision 24): one top-level comment of a short
 * video, as the site's comment list (`/api/comment/list/`) gives it. A value the answer lacks is null.
 */
import { Type, nullable } from '../dsl.ts';

const NS = nullable(Type.String());
const NI = nullable(Type.Integer());
const NB = nullable(Type.Boolean());

export const shortvideoCommentRecord = Type.Object({
  query: Type.String({ description: 'The query item as given (a video link, short link or id).' }),
  video_id: Type.String({ description: 'Numeric id of the video (the site calls it aweme_id).' }),
  comment_id: Type.String({ description: 'Numeric id of the comment (cid).' }),
  text: nullable(Type.String({ description: 'Comment text as written; "" for a sticker or image-only comment.' })),
  author_id: NS,
  author_username: nullable(Type.String({ description: 'Handle without the @ (unique_id).' })),
  author_nickname: nullable(Type.String({ description: 'Display name.' })),
  likes: nullable(Type.Integer({ description: 'Likes of the comment (digg_count).' })),
  replies_count: nullable(Type.Integer({ description: 'Replies under the comment (reply_comment_total); the replies themselves are not fetched.' })),
  created_timestamp: nullable(Type.Integer({ description: 'Unix seconds.' })),
  created_datetime_utc: nullable(Type.String({ description: 'ISO 8601, UTC.' })),
  next_page_cursor: nullable(Type.String({ description: 'Given as `cursor`, resumes right after this chunk (a signed resume point); null after the last comment.' })),
  author_sec_uid: nullable(Type.String({ description: 'The author\'s stable secure id (profile links use it).' })),
  author_avatar: nullable(Type.String({ description: 'Avatar thumbnail URL (signed, expires).' })),
  language: nullable(Type.String({ description: 'Language code the site detected ("un" when unknown).' })),
  pinned_by_author: NB,
  liked_by_author: NB,
  images: Type.Array(Type.String(), { description: 'Images attached to the comment (original size URLs, signed, expire).' }),
  comment_url: nullable(Type.String({ description: 'Share link of the comment.' })),
  video_comments_total: NI,
}, { $id: 'ShortvideoComment', additionalProperties: true, description: 'Short-video comment.' });
