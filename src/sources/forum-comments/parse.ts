/**
 * `parse` of `/forum-comments` (pure): a thread page, a morechildren answer or a "continue this
 * thread" page → the next comments in thread order, and the step that expands the next stub.
 *
 * Thread order with stubs: entries after the first unexpanded stub wait in the next step's state
 * (`rest`) and are emitted after the stub's comments, so records leave in the order the site shows
 * them, step by step, without a final sort.
 */
import type { FetchedResponse, ParseResult, QueryContext, Step } from '../_kit/adapter.ts';
import { SourceError } from '../_kit/errors.ts';
import { MORE_BATCH, classifyQuery, moreChildrenUrl, threadStep, threadUrl } from './plan.ts';
import type { ForumComment, ForumParams } from './record.ts';
import { commentListingOf, moreEntries, postOf, walk, type Entry, type PostInfo, type Stub } from './tree.ts';

/**
 * Comments one query returns at most: the operator's `FORUM_COMMENTS_MAX` (a positive integer), else
 * 10,000 (docs/sources-comments-videos.md). Read once when the adapter loads.
 * @example commentCap({ FORUM_COMMENTS_MAX: '500' }) // 500
 */
export function commentCap(env: Record<string, string | undefined> = process.env): number {
  const n = Number(env.FORUM_COMMENTS_MAX);
  return Number.isSafeInteger(n) && n > 0 ? n : 10_000;
}

export const MAX_COMMENTS = commentCap();

/** State of a step after the thread page. */
interface QueueState {
  post: PostInfo;
  /** Comments emitted so far. */
  got: number;
  /** Entries waiting behind the stub this step expands. */
  rest: Entry[];
  stub: Stub;
}

export const limitOf = (p: ForumParams | undefined) => Math.min(MAX_COMMENTS, Math.max(1, p?.limit ?? MAX_COMMENTS));

/** Parses a JSON body; an HTML body here is the site's block or login page, not data. */
export function jsonOf(body: string, what: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    if (/<html|<!doctype/i.test(body.slice(0, 2000))) {
      const login = /log\s*in|sign\s*in|whoa there|blocked|network security/i.test(body.slice(0, 20_000));
      throw new SourceError('blocked', `${what}: the site answered an HTML page${login ? ' (a login or block wall)' : ''} instead of JSON`);
    }
    throw new SourceError('layout_changed', `${what}: the answer is not JSON`);
  }
}

/** Error answers the JSON API gives with status 200 (`{error: 403, reason: 'private'}` and the like). */
function throwIfErrorAnswer(j: unknown, what: string): void {
  if (typeof j !== 'object' || j === null || Array.isArray(j)) return;
  const o = j as { error?: unknown; reason?: unknown; message?: unknown };
  if (o.error === undefined) return;
  const why = [o.reason, o.message].filter((x) => typeof x === 'string').join(': ') || String(o.error);
  if (o.error === 404) throw new SourceError('not_found', `${what}: ${why}`);
  if (o.error === 429) throw new SourceError('rate_limited', `${what}: ${why}`);
  // A private, quarantined or members-only community shows the thread to signed-in members only:
  // another proxy would meet the same refusal.
  if (o.error === 403 && typeof o.reason === 'string' && /^(private|quarantined|gold_only|gated)$/.test(o.reason)) {
    throw new SourceError('login_required', `${what}: the community is ${o.reason.replace('_', ' ')}: only signed-in members see the thread (${why})`);
  }
  throw new SourceError('blocked', `${what}: the site refused the thread (${why})`);
}

/** Emits queued entries until the next stub (→ the step expanding it) or the limit. */
function drain(queue: Entry[], from: number, post: PostInfo, got: number, limit: number, sort: ForumParams['sort']): ParseResult<ForumComment> {
  const records: ForumComment[] = [];
  for (let i = from; i < queue.length && got < limit; i++) {
    const e = queue[i];
    if ('r' in e) {
      records.push(e.r);
      got++;
      continue;
    }
    const stub = e.m;
    const rest = queue.slice(i + 1);
    if (!stub.ids.length) {
      // "Continue this thread": the replies of `parent` on a page of their own.
      if (!stub.parent) continue;
      const state: QueueState = { post, got, rest, stub };
      return { records, next: [{ kind: 'focus', url: threadUrl(post.id, sort, stub.parent), expect: 'json', state: { ...state } }] };
    }
    if (stub.ids.length > MORE_BATCH) rest.unshift({ m: { ...stub, ids: stub.ids.slice(MORE_BATCH), count: 0 } });
    const batch = stub.ids.slice(0, MORE_BATCH);
    const state: QueueState = { post, got, rest, stub: { ...stub, ids: batch } };
    return { records, next: [{ kind: 'more', url: moreChildrenUrl(post.id, batch, sort), expect: 'json', state: { ...state } }] };
  }
  return { records, next: [] };
}

/** A thread page answer → its post and entries (the focus page: only the replies of the focused comment). */
function threadEntries(answer: unknown, fallbackId: string | null, query: string, focus: Stub | null): { post: PostInfo; entries: Entry[] } {
  const post = postOf(answer, fallbackId);
  const listing = commentListingOf(answer);
  if (!post || !listing) throw new SourceError('layout_changed', 'thread page: expected [post listing, comment listing]');
  const entries: Entry[] = [];
  if (!focus) {
    walk(listing, 0, null, post, query, entries);
    return { post, entries };
  }
  const replies = (findComment(listing, focus.parent!) as any)?.data?.replies?.data?.children;
  if (Array.isArray(replies)) walk(replies, focus.depth, focus.parent, post, query, entries);
  return { post, entries };
}

/** The comment node with this id anywhere in a tree (the focus page may show parents as context). */
function findComment(nodes: unknown[], id: string): unknown {
  for (const n of nodes as any[]) {
    if (n?.kind !== 't1') continue;
    if (n.data?.id === id) return n;
    const kids = n.data?.replies?.data?.children;
    const hit = Array.isArray(kids) ? findComment(kids, id) : undefined;
    if (hit) return hit;
  }
  return undefined;
}

/**
 * One response → records and the next step.
 * @example parse(threadStep('3hahrw', 'best'), { status: 200, url, headers: {}, body }, { query: '3hahrw', params: {} })
 */
export function parse(step: Step, res: FetchedResponse, ctx: QueryContext<ForumParams>): ParseResult<ForumComment> {
  const p = ctx.params ?? {};
  const limit = limitOf(p);
  if (step.kind === 'share') {
    const f = classifyQuery(res.url);
    const canonical = f.form === 'post' ? f : (() => {
      const m = /\/comments\/([a-z0-9]{1,13})\//i.exec(/<link[^>]+rel="canonical"[^>]+href="([^"]+)"/i.exec(res.body)?.[1] ?? '');
      return m ? { form: 'post' as const, id: m[1].toLowerCase() } : null;
    })();
    if (!canonical || canonical.form !== 'post') throw new SourceError('not_found', `share link ${step.url} did not lead to a post`);
    return { records: [], next: [threadStep(canonical.id, p.sort)] };
  }
  const answer = jsonOf(res.body, `${step.kind} answer`);
  throwIfErrorAnswer(answer, `${step.kind} answer`);
  if (step.kind === 'thread') {
    const { post, entries } = threadEntries(answer, (step.state?.postId as string) ?? null, ctx.query, null);
    return drain(entries, 0, post, 0, limit, p.sort);
  }
  const st = step.state as unknown as QueueState | undefined;
  if (!st?.post || !st.stub) throw new SourceError('layout_changed', `${step.kind} step without its thread state`);
  let entries: Entry[];
  if (step.kind === 'focus') {
    entries = threadEntries(answer, st.post.id, ctx.query, st.stub).entries;
  } else if (step.kind === 'more') {
    entries = moreEntries(moreThings(answer), st.stub, st.post, ctx.query);
  } else {
    throw new SourceError('layout_changed', `unknown step kind ${step.kind}`);
  }
  const queue = entries.length ? entries.concat(st.rest) : st.rest;
  return drain(queue, 0, st.post, st.got, limit, p.sort);
}

/** The `things` of a morechildren answer (`{json: {errors, data: {things}}}`; older/other clients: `{jquery...}` is not read). */
export function moreThings(answer: unknown): unknown[] {
  const j = (answer as any)?.json;
  const errors = j?.errors;
  if (Array.isArray(errors) && errors.length) {
    const first = Array.isArray(errors[0]) ? errors[0].join(': ') : String(errors[0]);
    if (/RATELIMIT/i.test(first)) throw new SourceError('rate_limited', `morechildren: ${first}`);
    throw new SourceError('layout_changed', `morechildren: ${first}`);
  }
  const things = j?.data?.things;
  if (!Array.isArray(things)) throw new SourceError('layout_changed', 'morechildren answer: expected {json: {data: {things: [...]}}}');
  return things;
}
