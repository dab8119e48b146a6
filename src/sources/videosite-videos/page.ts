/**
 * InnerTube answers and channel pages → channel facts, the items of the wanted tab and the
 * continuation token (pure). Containers are found by walking down from the tab content or the
 * continuation actions until an item or a continuation is met, so the richGrid (2022+), sectionList
 * → gridRenderer (2017-2022) and continuationContents (before 2021) layouts read alike.
 */
import { SourceError } from '../_kit/errors.ts';
import { assignedJson } from '../_kit/embedded.ts';
import { isAdNode } from '../_kit/values.ts';
import { ITEM_KEYS } from './items.ts';
import type { ChannelInfo } from './record.ts';
import type { Tab } from './plan.ts';

type Obj = Record<string, any>;
const ITEMS = new Set<string>(ITEM_KEYS);

export interface Found {
  items: Array<{ key: (typeof ITEM_KEYS)[number]; node: Obj }>;
  token: string | null;
}

/** Items and the continuation token below `root`, in document order. */
export function collect(root: unknown): Found {
  const out: Found = { items: [], token: null };
  const walk = (n: unknown): void => {
    // A node flagged as an ad (a promoted tile, however wrapped): neither its videos nor its continuation are the channel's.
    if (!n || typeof n !== 'object' || isAdNode(n)) return;
    if (Array.isArray(n)) {
      for (const x of n) walk(x);
      return;
    }
    for (const k in n as Obj) {
      const v = (n as Obj)[k];
      if (ITEMS.has(k)) out.items.push({ key: k as Found['items'][number]['key'], node: v });
      else if (k === 'continuationItemRenderer') out.token ??= tokenOf(v);
      else if (k === 'nextContinuationData' && typeof v?.continuation === 'string') out.token ??= v.continuation;
      else if (v && typeof v === 'object' && k !== 'header' && k !== 'menu') walk(v);
    }
  };
  walk(root);
  return out;
}

const tokenOf = (c: Obj): string | null =>
  c?.continuationEndpoint?.continuationCommand?.token ?? c?.button?.buttonRenderer?.command?.continuationCommand?.token ?? null;

/** `{simpleText}` or `{runs}` text. */
const plainText = (t: any): string | null =>
  typeof t === 'string' ? t : typeof t?.simpleText === 'string' ? t.simpleText : Array.isArray(t?.runs) ? t.runs.map((r: any) => (typeof r?.text === 'string' ? r.text : '')).join('') || null : null;

/** Channel facts of a browse answer or channel page (header, metadata, microformat). */
export function channelOf(d: Obj, fallback: ChannelInfo): ChannelInfo {
  const meta = d.metadata?.channelMetadataRenderer ?? {};
  const c4 = d.header?.c4TabbedHeaderRenderer ?? {};
  const ph = d.header?.pageHeaderRenderer;
  let handle: string | null = null;
  for (const row of ph?.content?.pageHeaderViewModel?.metadata?.contentMetadataViewModel?.metadataRows ?? []) {
    for (const p of row?.metadataParts ?? []) {
      const t = p?.text?.content;
      if (typeof t === 'string' && t.startsWith('@')) handle ??= t;
    }
  }
  handle ??= c4.channelHandleText?.runs?.[0]?.text ?? null;
  for (const u of [meta.vanityChannelUrl, ...(Array.isArray(meta.ownerUrls) ? meta.ownerUrls : [])]) {
    const m = typeof u === 'string' ? /youtube\.com\/(@[^/?#]+)/.exec(u) : null;
    if (m) handle ??= decodeURIComponent(m[1]);
  }
  // Topic channels head their page with a carousel (topicChannelDetailsRenderer) or an interactive header.
  const topic = (Array.isArray(d.header?.carouselHeaderRenderer?.contents) ? d.header.carouselHeaderRenderer.contents : [])
    .map((c: Obj) => c?.topicChannelDetailsRenderer).find(Boolean);
  // A playlist (a channel's uploads) names its owner in its header.
  const owner = d.header?.playlistHeaderRenderer?.ownerText?.runs?.[0];
  const headed = plainText(topic?.title) ?? plainText(d.header?.interactiveTabbedHeaderRenderer?.title) ?? plainText(owner?.text);
  const title = typeof meta.title === 'string' ? meta.title : typeof c4.title === 'string' ? c4.title : typeof ph?.pageTitle === 'string' ? ph.pageTitle : headed;
  const topicId = topic?.navigationEndpoint?.browseEndpoint?.browseId ?? owner?.navigationEndpoint?.browseEndpoint?.browseId;
  return {
    channel_id: (typeof meta.externalId === 'string' ? meta.externalId : typeof c4.channelId === 'string' ? c4.channelId : null) ?? fallback.channel_id ?? (typeof topicId === 'string' && topicId.startsWith('UC') ? topicId : null),
    channel_name: title ?? fallback.channel_name,
    channel_handle: handle ?? fallback.channel_handle,
  };
}

/** Error answers: `{error: {code, message}}` and alerts such as "This channel does not exist." */
export function throwIfRefused(d: Obj, what: string): void {
  const e = d.error;
  if (e && typeof e === 'object') {
    const code = Number(e.code);
    const msg = `${what}: ${code || ''} ${e.status ?? ''} ${e.message ?? ''}`.replace(/\s+/g, ' ').trim();
    if (code === 404 || code === 400) throw new SourceError('not_found', msg);
    if (code === 429) throw new SourceError('rate_limited', msg);
    if (code === 401 || code === 403) throw new SourceError('blocked', msg);
    throw new SourceError('layout_changed', msg);
  }
  for (const a of Array.isArray(d.alerts) ? d.alerts : []) {
    const r = a?.alertRenderer ?? a?.alertWithButtonRenderer;
    if (r?.type === 'ERROR') {
      const t = r.text?.simpleText ?? r.text?.runs?.map((x: Obj) => x.text).join('') ?? 'error alert';
      throw new SourceError('not_found', `${what}: ${t}`);
    }
  }
}

const plain = (t: any): string | null => {
  if (typeof t === 'string') return t;
  if (typeof t?.simpleText === 'string') return t.simpleText;
  if (typeof t?.content === 'string') return t.content;
  if (Array.isArray(t?.runs)) return t.runs.map((r: Obj) => (typeof r?.text === 'string' ? r.text : '')).join('') || null;
  return null;
};

/**
 * A channel shown only to signed-in, age-verified visitors: the tabs hold a `channelAgeGateRenderer`
 * (channel title, "Sign in to confirm your age") in place of any listing, or a sign-in prompt where
 * the videos would be. A typed `login_required` with the page's own words, never an empty success.
 */
export function throwIfGated(d: Obj, what: string): void {
  const tabs = d.contents?.twoColumnBrowseResultsRenderer?.tabs ?? d.contents?.singleColumnBrowseResultsRenderer?.tabs;
  if (!Array.isArray(tabs)) return;
  let gate: Obj | null = null;
  let prompt: string | null = null;
  const walk = (n: unknown, depth: number): void => {
    if (gate || !n || typeof n !== 'object' || depth > 30) return;
    if (Array.isArray(n)) {
      for (const x of n) walk(x, depth + 1);
      return;
    }
    for (const k in n as Obj) {
      const v = (n as Obj)[k];
      if (k === 'channelAgeGateRenderer' && v && typeof v === 'object') {
        gate = v;
        return;
      }
      if (ITEMS.has(k)) continue;
      const t = (k === 'text' || k === 'title' || k === 'mainText' || k === 'subtitle') ? plain(v) : null;
      if (t && /\bsign in to\b/i.test(t)) prompt ??= t;
      walk(v, depth + 1);
    }
  };
  walk(tabs, 0);
  if (gate) {
    const g = gate as Obj;
    const words = [plain(g.header), plain(g.mainText), plain(g.secondaryText)].filter(Boolean).join(' ');
    const title = plain(g.channelTitle);
    throw new SourceError('login_required', `${what}: the channel${title ? ` "${title}"` : ''} is age-restricted: ${words || 'sign in to confirm your age'}`.slice(0, 300));
  }
  if (prompt && collect(tabs).items.length === 0) throw new SourceError('login_required', `${what}: the site asks to sign in: ${prompt}`.slice(0, 300));
}

export interface TabPick {
  /** Content of the wanted tab when it is the one served. */
  content: unknown;
  /** The wanted tab exists but another one was served: browse again with these params. */
  params: string | null;
  /** The channel has no such tab (no shorts, say). */
  missing: boolean;
}

/** Finds the wanted tab (by its URL suffix, then its title) among the answer's tabs. */
export function pickTab(d: Obj, tab: Tab): TabPick {
  const tabs = d.contents?.twoColumnBrowseResultsRenderer?.tabs ?? d.contents?.singleColumnBrowseResultsRenderer?.tabs;
  if (!Array.isArray(tabs)) throw new SourceError('layout_changed', 'browse answer: no channel tabs');
  const want = tab === 'shorts' ? /\/shorts$/ : /\/videos$/;
  const title = tab === 'shorts' ? 'Shorts' : 'Videos';
  let hit: Obj | undefined;
  for (const t of tabs) {
    const r = t?.tabRenderer;
    if (!r) continue;
    const url = r.endpoint?.commandMetadata?.webCommandMetadata?.url;
    if ((typeof url === 'string' && want.test(url)) || r.title === title) { hit = r; break; }
  }
  if (!hit) return { content: null, params: null, missing: true };
  if (hit.selected === true || hit.content) return { content: hit.content ?? null, params: null, missing: false };
  return { content: null, params: hit.endpoint?.browseEndpoint?.params ?? null, missing: false };
}

/** `ytInitialData` of a page (`var ytInitialData = {...}`, `window["ytInitialData"] = ...`), or null. */
export function initialDataOf(html: string): Obj | null {
  const d = assignedJson(html, 'ytInitialData');
  return d && typeof d === 'object' && !Array.isArray(d) ? d : null;
}
