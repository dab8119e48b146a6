/**
 * One listing item of a channel tab → a video record (pure). Item shapes read, newest first:
 *   lockupViewModel (Videos tab, 2025+): contentId, metadata.lockupMetadataViewModel.{title, metadata rows},
 *     duration badge in contentImage.thumbnailViewModel.overlays[..].thumbnailBadgeViewModel.text
 *   shortsLockupViewModel (Shorts tab, 2024+): reelWatchEndpoint.videoId, overlayMetadata.{primaryText, secondaryText}
 *   reelItemRenderer (Shorts tab, 2022-2024): videoId, headline, viewCountText
 *   playlistVideoRenderer (a playlist, such as a channel's uploads UU...): videoId, title, lengthText, videoInfo "views • age"
 *   videoRenderer / gridVideoRenderer (2017-2024, search results): videoId, title, viewCountText,
 *     publishedTimeText, lengthText or thumbnailOverlayTimeStatusRenderer
 */
import type { ChannelInfo, VideositeVideo } from './record.ts';
import { isAdNode } from '../_kit/values.ts';

type Obj = Record<string, any>;
export const ITEM_KEYS = ['lockupViewModel', 'shortsLockupViewModel', 'reelItemRenderer', 'videoRenderer', 'gridVideoRenderer', 'playlistVideoRenderer'] as const;

const text = (t: any): string | null => {
  if (typeof t === 'string') return t;
  if (!t || typeof t !== 'object') return null;
  if (typeof t.content === 'string') return t.content;
  if (typeof t.simpleText === 'string') return t.simpleText;
  // A run flagged as an ad is a promotion beside the text, not part of it.
  if (Array.isArray(t.runs)) return t.runs.map((r: any) => (typeof r?.text === 'string' && !isAdNode(r) ? r.text : '')).join('') || null;
  return null;
};

const IMAGE_URL = /^(?:https?:)?\/\//;

/**
 * The widest image of a `sources` / `thumbnails` list. Every entry of such a list is an image link;
 * one that is not (its url renamed or not a link) makes the list unread (null), since the widest
 * may be the one that did not read.
 */
function widest(list: unknown): string | null {
  if (!Array.isArray(list)) return null;
  let best: Obj | null = null;
  for (const t of list) {
    if (!t || typeof t.url !== 'string' || !IMAGE_URL.test(t.url)) return null;
    if (!best || (t.width ?? 0) > (best.width ?? 0)) best = t;
  }
  if (!best) return null;
  return best.url.startsWith('//') ? `https:${best.url}` : best.url;
}

const MULT: Record<string, number> = { k: 1e3, thousand: 1e3, m: 1e6, million: 1e6, b: 1e9, billion: 1e9 };

/**
 * Views text → integer, as precise as the text is; null when it is no view count ("5 watching").
 * @example viewCount('3.1k views') // 3100
 * @example viewCount('1,639 views') // 1639
 * @example viewCount('No views') // 0
 */
export function viewCount(t: string | null): number | null {
  if (!t) return null;
  if (/^\s*no views/i.test(t)) return 0;
  const m = /([\d][\d,.]*)\s*(k|m|b|thousand|million|billion)?\b\s*views?\b/i.exec(t);
  if (!m) return null;
  const mult = m[2] ? MULT[m[2].toLowerCase()] : 1;
  // "1,639" groups thousands; "3.1k" is a decimal before a multiplier.
  const n = mult === 1 ? Number(m[1].replace(/[,.]/g, '')) : Number(m[1].replace(/,/g, ''));
  return Number.isFinite(n) ? Math.round(n * mult) : null;
}

/**
 * "1:07:34" → 4054; null for anything else (LIVE, SHORTS, UPCOMING).
 * @example lengthSeconds('12:17') // 737
 */
export function lengthSeconds(t: string | null): number | null {
  if (!t || !/^\d+(?::\d{1,2}){1,2}$/.test(t.trim())) return null;
  return t.trim().split(':').reduce((s, p) => s * 60 + Number(p), 0);
}

/** A video id: 11 characters of the URL-safe base 64 alphabet. */
const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
/** The parts of a lockup's metadata rows, in English (the requests ask `hl: en`). */
const VIEWS_PART = /^(?:[\d][\d,.]*\s*(?:[kmb]|thousand|million|billion)?\s+(?:views?|watching)|no views)$/i;
const PUBLISHED_PART = /^(?:(?:streamed|premiered)(?:\s+live)?\s+)?\d+\s+\w+\s+ago$|^(?:scheduled for|premieres)\b/i;

/** The one part that matches; null when none does or when two do (which one is the video's is a guess). */
function onlyPart(parts: string[], re: RegExp): string | null {
  const hits = parts.filter((p) => re.test(p.trim()));
  return hits.length === 1 ? hits[0]! : null;
}

const watchUrl = (id: string, short: boolean) => (short ? `https://www.youtube.com/shorts/${id}` : `https://www.youtube.com/watch?v=${id}`);

/** The first `thumbnailBadgeViewModel.text` below a node (the duration badge of a lockup). */
function badgeText(node: unknown, depth = 0): string | null {
  // A badge or overlay flagged as an ad is a promotion on the picture, not the video's length.
  if (!node || typeof node !== 'object' || depth > 8 || isAdNode(node)) return null;
  const o = node as Obj;
  if (o.thumbnailBadgeViewModel && typeof o.thumbnailBadgeViewModel.text === 'string') return o.thumbnailBadgeViewModel.text;
  for (const v of Array.isArray(o) ? o : Object.values(o)) {
    const t = badgeText(v, depth + 1);
    if (t) return t;
  }
  return null;
}

interface Core {
  video_id: string;
  title: string | null;
  thumbnail: string | null;
  views_text: string | null;
  /** Where the view count is read when not from `views_text` (the spoken text of a short). */
  views_count_text?: string | null;
  published_text: string | null;
  length_text: string | null;
  short: boolean;
}

function lockup(v: Obj): Core | null {
  if (typeof v.contentId !== 'string' || (v.contentType && v.contentType !== 'LOCKUP_CONTENT_TYPE_VIDEO')) return null;
  const meta = v.metadata?.lockupMetadataViewModel;
  const parts: string[] = [];
  for (const row of meta?.metadata?.contentMetadataViewModel?.metadataRows ?? []) for (const p of row?.metadataParts ?? []) { const t = text(p?.text); if (t) parts.push(t); }
  const badge = badgeText(v.contentImage?.thumbnailViewModel?.overlays);
  return {
    video_id: v.contentId,
    title: text(meta?.title),
    thumbnail: widest(v.contentImage?.thumbnailViewModel?.image?.sources),
    views_text: onlyPart(parts, VIEWS_PART),
    published_text: onlyPart(parts, PUBLISHED_PART),
    length_text: badge,
    short: false,
  };
}

function shortsLockup(v: Obj): Core | null {
  const id = v.onTap?.innertubeCommand?.reelWatchEndpoint?.videoId ?? (typeof v.entityId === 'string' ? v.entityId.replace(/^shorts-shelf-item-/, '') : null);
  if (typeof id !== 'string' || !id) return null;
  const a11y = typeof v.accessibilityText === 'string' ? v.accessibilityText : null;
  const spoken = a11y ? /,\s*([^,]*\bviews?)\b/i.exec(a11y)?.[1] ?? null : null;
  // The shown views text when the overlay has one; the spoken one ("4.3 million views") stands in
  // only where no overlay text is served, not for one that is there but does not read.
  const shown = v.overlayMetadata?.secondaryText;
  return {
    video_id: id,
    title: text(v.overlayMetadata?.primaryText) ?? (a11y ? a11y.replace(/,\s*[^,]*\bviews?\b.*$/i, '') : null),
    thumbnail: widest(v.thumbnailViewModel?.thumbnailViewModel?.image?.sources ?? v.thumbnail?.sources),
    views_text: shown === undefined || shown === null ? spoken : text(shown),
    views_count_text: text(shown) ?? spoken,
    published_text: null,
    length_text: null,
    short: true,
  };
}

function renderer(v: Obj, short: boolean): Core | null {
  if (typeof v.videoId !== 'string') return null;
  let len = text(v.lengthText);
  let isShort = short;
  for (const o of v.thumbnailOverlays ?? []) {
    if (isAdNode(o)) continue;
    const ts = o?.thumbnailOverlayTimeStatusRenderer;
    if (!ts) continue;
    if (ts.style === 'SHORTS') isShort = true;
    len ??= text(ts.text);
  }
  // A playlist's entry (a channel's uploads playlist) says views and age in one line: "1.2K views • 3 days ago".
  const info = (Array.isArray(v.videoInfo?.runs) ? v.videoInfo.runs : []).map((r: any) => (typeof r?.text === 'string' ? r.text.trim() : '')).filter((t: string) => t && t !== '•');
  return {
    video_id: v.videoId,
    title: text(v.title) ?? text(v.headline),
    thumbnail: widest(v.thumbnail?.thumbnails),
    // The rounded short count only when the exact one is absent: one there that does not read is unknown, not "5.1K".
    views_text: v.viewCountText == null ? text(v.shortViewCountText) ?? (info.length === 2 ? info[0] : null) : text(v.viewCountText),
    published_text: text(v.publishedTimeText) ?? (info.length === 2 ? info[1] : null),
    length_text: isShort ? null : len,
    short: isShort,
  };
}

/**
 * An item node (the value under one of ITEM_KEYS) → its record, or null when it is no video.
 * `shortsTab`: the item came from the Shorts tab (reel items are shorts in any case).
 */
export function videoOf(key: (typeof ITEM_KEYS)[number], v: Obj, channel: ChannelInfo, query: string, cursor: string | null, shortsTab: boolean): VideositeVideo | null {
  const c = key === 'lockupViewModel' ? lockup(v) : key === 'shortsLockupViewModel' ? shortsLockup(v) : renderer(v, key === 'reelItemRenderer' || shortsTab);
  if (!c || !VIDEO_ID.test(c.video_id)) return null;
  const short = c.short || shortsTab;
  return {
    query,
    ...channel,
    video_id: c.video_id,
    title: c.title,
    url: watchUrl(c.video_id, short),
    thumbnail: c.thumbnail,
    view_count: viewCount(c.views_text ?? c.views_count_text ?? null),
    views_text: c.views_text,
    published_text: c.published_text,
    length_seconds: short ? null : lengthSeconds(c.length_text),
    length_text: short ? null : c.length_text,
    is_short: short,
    next_page_cursor: cursor,
  };
}
