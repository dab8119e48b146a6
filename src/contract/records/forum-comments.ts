/**
 * Record of `GET /forum-comments` (issue 10, decision 24): one comment of a discussion thread, in
 * thread order (a comment, then its replies depth first). Extra fields are allowed (decision 10).
 */
import { Type, nullable } from '../dsl.ts';

const S = (description: string) => Type.String({ description });
const NS = (description: string) => nullable(Type.String({ description }));
const NI = (description: string) => nullable(Type.Integer({ description }));

export const forumCommentRecord = Type.Object({
  query: S('The query item as given.'),
  post_id: S('Id of the post (base 36, without the `t3_` prefix).'),
  post_title: NS('Title of the post.'),
  community: NS('Community (subreddit) name, without the `r/` prefix.'),
  comment_id: S('Id of the comment (base 36, without the `t1_` prefix).'),
  parent_id: NS('Id of the comment replied to (without prefix); null for a top-level comment.'),
  depth: Type.Integer({ minimum: 0, description: '0 for a top-level comment, 1 for a reply to it, and so on.' }),
  author: NS('Author name as shown; `[deleted]` for deleted accounts.'),
  body: NS('Text (markdown source) as the site shows it; `[deleted]` / `[removed]` for deleted or removed comments.'),
  score: NI('Score (upvotes minus downvotes) as served; may be fuzzed or hidden by the site.'),
  created_timestamp: NI('Creation time, Unix seconds.'),
  created_datetime_utc: NS('Creation time, ISO 8601 UTC.'),
  edited: Type.Boolean({ description: 'True when the comment was edited.' }),
  edited_timestamp: NI('Time of the last edit, Unix seconds; null when not edited or the site gives no time.'),
  edited_datetime_utc: NS('Time of the last edit, ISO 8601 UTC.'),
  is_submitter: Type.Boolean({ description: 'True when the comment author also wrote the post.' }),
  permalink: NS('Absolute link to the comment.'),
  replies_count: Type.Integer({ minimum: 0, description: 'Replies below this comment at every depth, counting those behind "load more" links.' }),
  author_id: NS('Author account id (`t2_...`) when served.'),
  body_html: NS('Rendered HTML of the body when served.'),
  distinguished: NS('`moderator` or `admin` when the comment is distinguished, else null.'),
  stickied: nullable(Type.Boolean({ description: 'Pinned by a moderator.' })),
  controversiality: NI('1 when the site marks the comment controversial, else 0.'),
}, { $id: 'ForumComment', additionalProperties: true, description: 'One comment of a discussion thread (forum-comments).' });
