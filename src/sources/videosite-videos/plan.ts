/**
 * Query forms and requests of `/videosite-videos` (YouTube, InnerTube WEB client).
 *
 * Query items: a handle (`@name`, or `name`), a channel id (`UC` + 22 characters), or a channel URL
 * (`/@name`, `/channel/UC...`, `/c/name`, `/user/name`, a bare legacy `/name`; any of www., m.,
 * music. hosts; a trailing tab such as `/videos` is ignored: `shorts` picks the tab); or a channel's
 * uploads playlist (`UU` + the same 22 characters as its channel id, bare or as a `list=` link:
 * `/playlist?list=UU...`, `/watch?v=...&list=UU...`), read as that channel.
 *
 * Requests (facts from public clients such as NewPipeExtractor; the captures' `_requests.json`):
 *   POST https://www.youtube.com/youtubei/v1/navigation/resolve_url?prettyPrint=false
 *        {context, url: 'https://www.youtube.com/@name'}  → endpoint.browseEndpoint.browseId (UC...)
 *   POST https://www.youtube.com/youtubei/v1/browse?prettyPrint=false
 *        {context, browseId, params}  params: Videos tab 'EgZ2aWRlb3PyBgQKAjoA', Shorts 'EgZzaG9ydHPyBgUKA5oBAA%3D%3D'
 *        {context, continuation: <token>}  for the next pages
 * A channel id skips the resolution.
 */
import type { Step } from '../_kit/adapter.ts';
import { SourceError } from '../_kit/errors.ts';
import type { ChannelInfo } from './record.ts';

const ORIGIN = 'https://www.youtube.com';
export const RESOLVE_URL = `${ORIGIN}/youtubei/v1/navigation/resolve_url?prettyPrint=false`;
export const BROWSE_URL = `${ORIGIN}/youtubei/v1/browse?prettyPrint=false`;
/** WEB client version sent (a recent one the site accepts; the captures were made with it). */
export const CLIENT_VERSION = '2.20260519.10.00';
export const TAB_PARAMS = { videos: 'EgZ2aWRlb3PyBgQKAjoA', shorts: 'EgZzaG9ydHPyBgUKA5oBAA%3D%3D' } as const;
export type Tab = keyof typeof TAB_PARAMS;

const CHANNEL_ID = /^UC[A-Za-z0-9_-]{22}$/;
/** A channel's uploads playlist: `UU` and the rest of its channel id. */
const UPLOADS_ID = /^UU([A-Za-z0-9_-]{22})$/;
const HANDLE = /^@?[\p{L}\p{N}._·-]{3,100}$/u;
const HOSTS = /^(?:(?:www|m|music)\.)?youtube\.com$/;
const TABS = new Set(['videos', 'shorts', 'streams', 'featured', 'playlists', 'community', 'posts', 'about', 'live', 'podcasts', 'releases', 'store', 'search', 'channels']);

export type ChannelRef = { form: 'id'; id: string } | { form: 'url'; url: string; handle: string | null };

/**
 * Reads a query item.
 * @example channelRef('@creativecommons') // { form: 'url', url: 'https://www.youtube.com/@creativecommons', handle: '@creativecommons' }
 * @example channelRef('https://www.youtube.com/channel/UCTwECeGqMZee77BjdoYtI2Q/videos') // { form: 'id', id: 'UCTwECeGqMZee77BjdoYtI2Q' }
 */
export function channelRef(raw: string): ChannelRef | { form: 'invalid'; reason: string } {
  const q = raw.trim();
  if (CHANNEL_ID.test(q)) return { form: 'id', id: q };
  const uploads = UPLOADS_ID.exec(q);
  if (uploads) return { form: 'id', id: `UC${uploads[1]}` };
  if (!q.includes('/') && (q.startsWith('@') || !q.includes('.')) && HANDLE.test(q)) {
    const h = q.startsWith('@') ? q : `@${q}`;
    return { form: 'url', url: `${ORIGIN}/${encodeURI(h)}`, handle: h };
  }
  let u: URL;
  try {
    u = new URL(/^https?:\/\//i.test(q) ? q : `https://${q.replace(/^\/+/, '')}`);
  } catch {
    return { form: 'invalid', reason: bad(q) };
  }
  if (!HOSTS.test(u.hostname.toLowerCase())) return { form: 'invalid', reason: bad(q) };
  const list = u.searchParams.get('list');
  if (list !== null) {
    const m = UPLOADS_ID.exec(list);
    if (m) return { form: 'id', id: `UC${m[1]}` };
    return { form: 'invalid', reason: `playlist "${list.slice(0, 60)}" is not a channel's uploads playlist (UU...): only those are read, as their channel` };
  }
  const parts = u.pathname.split('/').filter(Boolean).map((p) => decodeURIComponent(p));
  const [a, b] = parts;
  if (a === 'channel' && b && CHANNEL_ID.test(b)) return { form: 'id', id: b };
  if (a?.startsWith('@') && HANDLE.test(a)) return { form: 'url', url: `${ORIGIN}/${encodeURI(a)}`, handle: a };
  if ((a === 'c' || a === 'user') && b) return { form: 'url', url: `${ORIGIN}/${a}/${encodeURIComponent(b)}`, handle: null };
  if (a && parts.length <= 2 && (!b || TABS.has(b)) && /^[\w.-]+$/.test(a) && !['watch', 'shorts', 'playlist', 'results', 'feed', 'embed', 'live', 'c', 'user', 'channel'].includes(a)) {
    return { form: 'url', url: `${ORIGIN}/${encodeURIComponent(a)}`, handle: null };
  }
  return { form: 'invalid', reason: bad(q) };
}

const bad = (q: string) => `query "${q.slice(0, 100)}" is not a channel handle (@name), channel id (UC...), channel URL (/@name, /channel/UC..., /c/name, /user/name) or uploads playlist (UU..., /playlist?list=UU...)`;

export function checkChannelQuery(q: string): string | undefined {
  const r = channelRef(q);
  return r.form === 'invalid' ? r.reason : undefined;
}

/** InnerTube request context of the WEB client. */
export function context(clientVersion = CLIENT_VERSION) {
  return { client: { hl: 'en', gl: 'US', clientName: 'WEB', clientVersion, originalUrl: ORIGIN, platform: 'DESKTOP', utcOffsetMinutes: 0 }, user: { lockedSafetyMode: false } };
}

const headers = (clientVersion = CLIENT_VERSION) => ({
  'content-type': 'application/json', origin: ORIGIN, 'x-youtube-client-name': '1', 'x-youtube-client-version': clientVersion,
});

/** State every step carries: the tab and the channel once known. */
export interface PageState {
  tab: Tab;
  channel: ChannelInfo;
  /** Set after one corrective browse (the site served another tab): no second one. */
  retried?: boolean;
}

export function resolveStep(url: string, st: PageState): Step {
  return { kind: 'resolve', url: RESOLVE_URL, method: 'POST', headers: headers(), body: JSON.stringify({ context: context(), url }), expect: 'json', state: { ...st } };
}

export function browseStep(browseId: string, params: string, st: PageState): Step {
  return { kind: 'browse', url: BROWSE_URL, method: 'POST', headers: headers(), body: JSON.stringify({ context: context(), browseId, params }), expect: 'json', state: { ...st } };
}

export function continuationStep(token: string, st: PageState): Step {
  return { kind: 'continuation', url: BROWSE_URL, method: 'POST', headers: headers(), body: JSON.stringify({ context: context(), continuation: token }), expect: 'json', state: { ...st } };
}

/** The first step of a query; throws `invalid_query` for an item none of the forms accept. */
export function firstStep(query: string, shorts: boolean | undefined): Step {
  const ref = channelRef(query);
  if (ref.form === 'invalid') throw new SourceError('invalid_query', ref.reason);
  const tab: Tab = shorts ? 'shorts' : 'videos';
  if (ref.form === 'id') return browseStep(ref.id, TAB_PARAMS[tab], { tab, channel: { channel_id: ref.id, channel_name: null, channel_handle: null } });
  return resolveStep(ref.url, { tab, channel: { channel_id: null, channel_name: null, channel_handle: ref.handle } });
}
