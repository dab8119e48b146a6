/**
 * `parse` of `/videosite-videos` (pure): resolve answer → browse step; browse answer or channel
 * page → the tab's first videos and the continuation step; continuation answer → next videos.
 * Every record carries the token continuing after its page as `next_page_cursor` (null on the last).
 */
import type { FetchedResponse, ParseResult, QueryContext, Step } from '../_kit/adapter.ts';
import { SourceError } from '../_kit/errors.ts';
import { videoOf } from './items.ts';
import { channelOf, collect, initialDataOf, pickTab, throwIfGated, throwIfRefused, type Found } from './page.ts';
import { TAB_PARAMS, browseStep, continuationStep, type PageState } from './plan.ts';
import type { ChannelInfo, VideositeParams, VideositeVideo } from './record.ts';

type Obj = Record<string, any>;

export function jsonAnswer(body: string, what: string): Obj {
  let d: unknown;
  try {
    d = JSON.parse(body);
  } catch {
    if (/<html|<!doctype/i.test(body.slice(0, 2000))) throw new SourceError('blocked', `${what}: the site answered an HTML page instead of JSON`);
    throw new SourceError('layout_changed', `${what}: the answer is not JSON`);
  }
  if (!d || typeof d !== 'object' || Array.isArray(d)) throw new SourceError('layout_changed', `${what}: expected a JSON object`);
  throwIfRefused(d as Obj, what);
  return d as Obj;
}

/** Found items → records. */
export function recordsOf(found: Found, channel: ChannelInfo, query: string, shortsTab: boolean): VideositeVideo[] {
  const out: VideositeVideo[] = [];
  for (const it of found.items) {
    const r = videoOf(it.key, it.node, channel, query, found.token, shortsTab);
    if (r) out.push(r);
  }
  return out;
}

/**
 * Records of one page and the step to the next. The query's `limit` is the runner's to apply: it cuts
 * the last page and signs where the query stopped (inside a page too) into `next_page_cursor`.
 */
function page(found: Found, st: PageState, channel: ChannelInfo, ctx: QueryContext<VideositeParams>): ParseResult<VideositeVideo> {
  const records = recordsOf(found, channel, ctx.query, st.tab === 'shorts');
  return { records, next: found.token ? [continuationStep(found.token, { ...st, channel })] : [], cursor: found.token };
}

/** The first page of a tab (browse answer or ytInitialData of a channel page). */
export function firstPage(d: Obj, st: PageState, ctx: QueryContext<VideositeParams>, browseId: string | null): ParseResult<VideositeVideo> {
  throwIfGated(d, 'browse answer');
  // Headers without a channel block (carousel, interactive): the channel the request browsed.
  const asked = typeof browseId === 'string' && /^UC[\w-]{22}$/.test(browseId) ? browseId : null;
  const channel = channelOf(d, { ...st.channel, channel_id: st.channel.channel_id ?? asked });
  const pick = pickTab(d, st.tab);
  if (pick.missing) return { records: [], next: [], cursor: null };
  if (pick.content === null) {
    // The site served another tab (Home) although ours exists: ask once more with its own params.
    const id = browseId ?? channel.channel_id;
    if (st.retried || !pick.params || !id) throw new SourceError('layout_changed', `browse answer: the ${st.tab} tab was not served`);
    return { records: [], next: [browseStep(id, pick.params, { ...st, channel, retried: true })] };
  }
  return page(collect(pick.content), st, channel, ctx);
}

/** Items of a continuation answer (appendContinuationItemsAction; before 2021: continuationContents). */
export function continuationFound(d: Obj): Found | null {
  if (Array.isArray(d.onResponseReceivedActions) || Array.isArray(d.onResponseReceivedEndpoints)) return collect(d.onResponseReceivedActions ?? d.onResponseReceivedEndpoints);
  if (d.continuationContents) return collect(d.continuationContents);
  return null;
}

export function parse(step: Step, res: FetchedResponse, ctx: QueryContext<VideositeParams>): ParseResult<VideositeVideo> {
  const st = step.state as unknown as PageState;
  if (!st?.tab) throw new SourceError('layout_changed', `${step.kind} step without its state`);
  if (step.kind === 'channel-page') {
    const d = initialDataOf(res.body);
    if (!d) throw new SourceError('layout_changed', 'channel page: no ytInitialData');
    throwIfRefused(d, 'channel page');
    return firstPage(d, st, ctx, null);
  }
  const d = jsonAnswer(res.body, `${step.kind} answer`);
  if (step.kind === 'resolve') {
    const id = d.endpoint?.browseEndpoint?.browseId;
    if (typeof id !== 'string' || !id.startsWith('UC')) {
      if (d.endpoint) throw new SourceError('not_found', `resolve answer: ${(JSON.parse(step.body ?? '{}') as Obj).url} is not a channel`);
      throw new SourceError('layout_changed', 'resolve answer: no endpoint');
    }
    return { records: [], next: [browseStep(id, TAB_PARAMS[st.tab], { ...st, channel: { ...st.channel, channel_id: id } })] };
  }
  if (step.kind === 'browse') {
    const browseId = (JSON.parse(step.body ?? '{}') as Obj).browseId ?? null;
    return firstPage(d, st, ctx, browseId);
  }
  if (step.kind === 'continuation') {
    const found = continuationFound(d);
    if (!found) throw new SourceError('layout_changed', 'continuation answer: no continuation items');
    return page(found, st, st.channel, ctx);
  }
  throw new SourceError('layout_changed', `unknown step kind ${step.kind}`);
}
