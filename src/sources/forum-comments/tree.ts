/**
 * Reddit's comment JSON → entries in thread order (pure). An entry is a finished comment record or
 * a "more" stub still to expand; the adapter expands stubs in place so the output keeps thread order.
 *
 * Shapes read (facts from the public JSON, the same since 2016):
 *   t1 comment `{kind: 't1', data: {id, parent_id, author, body, score, created_utc, edited, replies}}`
 *   where `replies` is '' or a Listing; newer answers add depth, permalink, is_submitter, author_fullname.
 *   more stub `{kind: 'more', data: {id, parent_id, count, children: [ids], depth?}}`; `id: '_'` with no
 *   children is "continue this thread" (the replies need a page of their own).
 * A comment's id is base 36 (`cu5pebp`). An entry the site flags `promoted` (its mark for paid
 * entries) is no comment and is left out. A comment or stub whose data does not read (no id of that
 * form: a key renamed, a block wrapped) is `layout_changed`: dropping it would leave every ancestor
 * with a replies_count that is silently too low.
 */
import { isoUtc, toUnix } from '../_kit/dates.ts';
import { SourceError } from '../_kit/errors.ts';
import { isAdNode } from '../_kit/values.ts';
import type { ForumComment } from './record.ts';

/** What every comment record repeats about its post. */
export interface PostInfo {
  id: string;
  title: string | null;
  community: string | null;
  author: string | null;
  /** Site-relative permalink of the post, ending in `/`. */
  permalink: string | null;
}

export interface Stub {
  /** Short id of the comment the hidden replies answer; null at the top level. */
  parent: string | null;
  depth: number;
  /** Ids to expand; empty for "continue this thread". */
  ids: string[];
  count: number;
}

export type Entry = { r: ForumComment } | { m: Stub };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const strOr = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const intOr = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : null);
const ORIGIN = 'https://www.reddit.com';
/** A thing's short id: base 36. */
const REDDIT_ID = /^[0-9a-z]+$/;

/** `t1_abc` / `t3_abc` → `abc`; the post itself (t3) is no parent comment. */
function parentOf(fullname: unknown): string | null {
  if (typeof fullname !== 'string' || fullname.startsWith('t3_')) return null;
  return fullname.startsWith('t1_') ? fullname.slice(3) : fullname || null;
}

/** The post of a thread answer (`[Listing[t3], Listing[t1...]]`), or null when it holds none. */
export function postOf(answer: unknown, fallbackId: string | null): PostInfo | null {
  if (!Array.isArray(answer)) return null;
  // The post is the listing's first link that is no ad (a promoted link, flagged on the entry or its data).
  const kids: unknown[] = Array.isArray((answer[0] as any)?.data?.children) ? (answer[0] as any).data.children : [];
  const t3 = kids.find((c) => !isAdNode(c) && !isAdNode((c as any)?.data)) as any;
  const d: Obj | null = isObj(t3) && t3.kind === 't3' && isObj(t3.data) ? t3.data : null;
  const id = strOr(d?.id) ?? fallbackId;
  if (!id) return null;
  let permalink = strOr(d?.permalink);
  if (permalink && !permalink.endsWith('/')) permalink += '/';
  const community = strOr(d?.subreddit) ?? (permalink ? /^\/r\/([^/]+)\//.exec(permalink)?.[1] ?? null : null);
  return { id, title: strOr(d?.title), community, author: strOr(d?.author), permalink: permalink ?? (community ? `/r/${community}/comments/${id}/_/` : null) };
}

/** The comment children of a thread answer, or null when the answer has no comment listing. */
export function commentListingOf(answer: unknown): unknown[] | null {
  if (!Array.isArray(answer) || answer.length < 2) return null;
  const l = answer[1] as any;
  return Array.isArray(l?.data?.children) ? l.data.children : null;
}

/**
 * Walks a tree of comment nodes depth first, appending entries to `out` in thread order.
 * Returns how many comments (shown or behind stubs) the nodes hold, for the parent's replies_count.
 */
export function walk(nodes: unknown[], depth: number, parent: string | null, post: PostInfo, query: string, out: Entry[]): number {
  let total = 0;
  for (const n of nodes) {
    if (!isObj(n) || (isObj(n.data) && n.data.promoted === true)) continue;
    if (n.kind !== 't1' && n.kind !== 'more' && typeof n.kind === 'string') continue; // another kind of thing (a post)
    const d = n.data;
    if (!isObj(d) || typeof d.id !== 'string' || !(REDDIT_ID.test(d.id) || (n.kind === 'more' && d.id === '_'))) {
      throw new SourceError('layout_changed', `a comment listing entry (kind ${JSON.stringify(n.kind)}) has no comment id: the replies around it cannot be counted`);
    }
    if (n.kind === 'more') {
      const ids = Array.isArray(d.children) ? d.children.filter((x): x is string => typeof x === 'string') : [];
      const count = intOr(d.count) ?? ids.length;
      out.push({ m: { parent: parentOf(d.parent_id) ?? parent, depth, ids, count } });
      total += count;
      continue;
    }
    const at = out.length;
    out.push({ r: undefined as unknown as ForumComment });
    const replies = isObj(d.replies) && isObj(d.replies.data) && Array.isArray(d.replies.data.children) ? d.replies.data.children : [];
    const below = replies.length ? walk(replies, depth + 1, d.id, post, query, out) : 0;
    out[at] = { r: commentRecord(d, depth, below, post, query) };
    total += 1 + below;
  }
  return total;
}

/** One t1 `data` → its record. */
export function commentRecord(d: Obj, depth: number, replies: number, post: PostInfo, query: string): ForumComment {
  const id = d.id as string;
  const author = strOr(d.author);
  const edited = d.edited;
  const link = strOr(d.permalink) ?? (post.permalink ? `${post.permalink}${id}/` : null);
  // Plain fields, not spread from a computed-key object: every record keeps one shape (bench: 0.46x → 0.70x of JSON.parse).
  const created = toUnix(d.created_utc);
  const editedAt = typeof edited === 'number' ? toUnix(edited) : null;
  return {
    query,
    post_id: post.id,
    post_title: post.title,
    community: post.community,
    comment_id: id,
    parent_id: parentOf(d.parent_id),
    depth,
    author,
    body: strOr(d.body),
    score: intOr(d.score),
    created_timestamp: created,
    created_datetime_utc: isoUtc(created),
    edited: edited !== false && edited !== null && edited !== undefined,
    edited_timestamp: editedAt,
    edited_datetime_utc: isoUtc(editedAt),
    is_submitter: typeof d.is_submitter === 'boolean' ? d.is_submitter : author !== null && author !== '[deleted]' && author === post.author,
    permalink: link ? (link.startsWith('http') ? link : ORIGIN + link) : null,
    replies_count: replies,
    author_id: strOr(d.author_fullname),
    body_html: strOr(d.body_html),
    distinguished: strOr(d.distinguished),
    stickied: typeof d.stickied === 'boolean' ? d.stickied : null,
    controversiality: intOr(d.controversiality),
  };
}

/**
 * The flat `things` of a morechildren answer → tree order under the stub they expand. The answer
 * lists each comment after its parent; the tree is rebuilt from `parent_id` so an answer in another
 * order still comes out depth first, answer order among siblings.
 */
export function moreEntries(things: unknown[], stub: Stub, post: PostInfo, query: string): Entry[] {
  const byParent = new Map<string | null, Obj[]>();
  const ids = new Set<string>();
  for (const t of things) if (isObj(t) && isObj(t.data) && typeof t.data.id === 'string' && t.data.id !== '_') ids.add(t.data.id);
  for (const t of things) {
    if (!isObj(t) || !isObj(t.data)) continue;
    const p = parentOf(t.data.parent_id);
    const key = p !== null && ids.has(p) ? p : null; // roots: parents outside the answer
    let list = byParent.get(key);
    if (!list) byParent.set(key, (list = []));
    list.push(t);
  }
  const nest = (o: Obj): Obj => {
    const kids = typeof (o.data as Obj).id === 'string' ? byParent.get((o.data as Obj).id as string) : undefined;
    return kids ? { ...o, data: { ...(o.data as Obj), replies: { data: { children: kids.map(nest) } } } } : o;
  };
  const out: Entry[] = [];
  walk((byParent.get(null) ?? []).map(nest), stub.depth, stub.parent, post, query, out);
  return out;
}
