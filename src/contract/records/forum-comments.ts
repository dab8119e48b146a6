/**
 * Record of `GET /forum-comments` (issue 10, decision 24): one comment of a discussion thread, in
 * thread order (a comment, then its replies depth first). Extra fields are allowed (decision 10).
 */
import { Type } from '../dsl.ts';
import { nbool, nint, nstr, record, str } from './fields.ts';

export const forumCommentRecord = record('ForumComment', 'One comment of a discussion thread.', {
  query: str('The query item as given.'),
  post_id: str('Id of the post (base 36, without the `t3_` prefix).'),
  post_title: nstr('Title of the post.'),
  community: nstr('Community (subreddit) name, without the `r/` prefix.'),
  comment_id: str('Id of the comment (base 36, without the `t1_` prefix).'),
  parent_id: nstr('Id of the comment replied to (without prefix); null for a top-level comment.'),
  depth: Type.Integer({ minimum: 0, description: '0 for a top-level comment, 1 for a reply to it, and so on.' }),
  author: nstr('Author name as shown; `[deleted]` for deleted accounts.'),
  body: nstr('Text (markdown source) as the site shows it; `[deleted]` / `[removed]` for deleted or removed comments.'),
  score: nint('Score (upvotes minus downvotes) as served; the site may fuzz it.'),
  created_timestamp: nint('Creation time, Unix seconds.'),
  created_datetime_utc: nstr('Creation time, ISO 8601 UTC.'),
  edited: Type.Boolean({ description: 'True when the comment was edited.' }),
  edited_timestamp: nint('Time of the last edit, Unix seconds; null when not edited or the site gives no time.'),
  edited_datetime_utc: nstr('Time of the last edit, ISO 8601 UTC.'),
  is_submitter: Type.Boolean({ description: 'True when the comment author also wrote the post.' }),
  permalink: nstr('Absolute link to the comment.'),
  replies_count: Type.Integer({ minimum: 0, description: 'Replies below this comment at every depth, counting those behind "load more" links.' }),
  author_id: nstr('Author account id (`t2_...`) when served.'),
  body_html: nstr('Rendered HTML of the body when served.'),
  distinguished: nstr('`moderator` or `admin` when the comment is distinguished, else null.'),
  stickied: nbool('Pinned by a moderator.'),
  controversiality: nint('1 when the site marks the comment controversial, else 0.'),
});
