/**
 * The signed-in company feed (`/voyager/api/feed/updatesV2`). The web app asks for the
 * "normalized" form: `data["*elements"]` lists update URNs and `included[]` holds every entity
 * (updates, social details, activity counts, video metadata) once, linked by `*field` URN
 * references. The plain form nests the same objects in place; `deref` reads both.
 * Field names from public knowledge of the API (open-source clients' entity definitions).
 */
import type { PostBody } from './record.ts';
import { postedFields } from './time.ts';
import { isAdNode, webLink } from '../_kit/values.ts';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : null);
const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);
const int = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : null);

export type FeedPost = PostBody & { company_name: string | null; company_id: string | null };

export interface FeedPage {
  posts: FeedPost[];
  /** Updates in this answer (posts or not): how far `start` moves. */
  size: number;
  total: number | null;
  token: string | null;
}

const IMAGE = 'com.linkedin.voyager.feed.render.ImageComponent';
const VIDEO = 'com.linkedin.voyager.feed.render.LinkedInVideoComponent';

/**
 * The feed answer's parts, or null when it has neither `*elements`/`elements` (no feed answer).
 */
export function feedPage(body: Obj): FeedPage | null {
  const data = obj(body.data) ?? body;
  const byUrn = new Map<string, Obj>();
  if (Array.isArray(body.included)) {
    for (const e of body.included) {
      const o = obj(e);
      const urn = o && str(o.entityUrn);
      if (urn) byUrn.set(urn, o!);
    }
  }
  const deref = (o: Obj | null, key: string): Obj | null => (o ? obj(o[key]) ?? (typeof o[`*${key}`] === 'string' ? byUrn.get(o[`*${key}`] as string) ?? null : null) : null);
  const raw = Array.isArray(data['*elements']) ? data['*elements'] : Array.isArray(data.elements) ? data.elements : null;
  if (!raw) return null;
  const updates = raw.map((e) => (typeof e === 'string' ? byUrn.get(e) ?? null : obj(e)));
  const posts: FeedPost[] = [];
  for (const u of updates) {
    const p = u && postOf(u, deref);
    if (p) posts.push(p);
  }
  const paging = obj(data.paging);
  return { posts, size: raw.length, total: int(paging?.total), token: str(obj(data.metadata)?.paginationToken) };
}

type Deref = (o: Obj | null, key: string) => Obj | null;

function textAt(o: Obj | null, ...path: string[]): string | null {
  let cur: unknown = o;
  for (const k of path) cur = obj(cur)?.[k];
  return str(cur);
}

function imagesOf(content: Obj | null): string[] {
  const out: string[] = [];
  const images = obj(content?.[IMAGE])?.images;
  if (!Array.isArray(images)) return out;
  for (const im of images) {
    for (const a of (obj(im)?.attributes as unknown[]) ?? []) {
      const vi = obj(obj(a)?.vectorImage) ?? obj(obj(obj(a)?.detailData)?.vectorImage);
      const root = str(vi?.rootUrl);
      const arts = Array.isArray(vi?.artifacts) ? (vi!.artifacts as unknown[]).map(obj).filter(Boolean) as Obj[] : [];
      const best = arts.sort((x, y) => (int(y.width) ?? 0) - (int(x.width) ?? 0))[0];
      const seg = str(best?.fileIdentifyingUrlPathSegment);
      if (root && seg) out.push(root + seg);
    }
  }
  return out;
}

function videoOf(content: Obj | null, deref: Deref): string | null {
  const meta = deref(obj(content?.[VIDEO]), 'videoPlayMetadata');
  const streams = Array.isArray(meta?.progressiveStreams) ? (meta!.progressiveStreams as unknown[]).map(obj).filter(Boolean) as Obj[] : [];
  const best = streams.sort((x, y) => (int(y.width) ?? 0) - (int(x.width) ?? 0))[0];
  // The first location, an entry flagged as an ad being none of the video's; null when it is no link.
  const locs = Array.isArray(best?.streamingLocations) ? (best!.streamingLocations as unknown[]) : [];
  return webLink(obj(locs.find((l) => !isAdNode(l)))?.url);
}

/** One update entity → post; null when it names no activity. */
function postOf(u: Obj, deref: Deref): FeedPost | null {
  const meta = deref(u, 'updateMetadata');
  const urn = str(meta?.urn) ?? str(u.urn) ?? str(u.entityUrn);
  const id = urn ? /urn:li:(?:activity|share|ugcPost):(\d{15,20})/.exec(urn)?.[1] ?? null : null;
  if (!id) return null;
  const actor = deref(u, 'actor');
  const social = deref(u, 'socialDetail');
  const counts = deref(social, 'totalSocialActivityCounts');
  const content = deref(u, 'content');
  const ago = textAt(actor, 'subDescription', 'text');
  const actorUrn = str(actor?.urn);
  return {
    company_name: textAt(actor, 'name', 'text'),
    company_id: actorUrn ? /urn:li:(?:company|organization|fsd_company):(\d+)/.exec(actorUrn)?.[1] ?? null : null,
    post_id: id,
    post_url: textAt(deref(u, 'socialContent'), 'shareUrl') ?? `https://www.linkedin.com/feed/update/urn:li:activity:${id}/`,
    text: textAt(deref(u, 'commentary'), 'text', 'text'),
    ...postedFields(id),
    posted_ago: ago ? ago.split(/[•·]/)[0].trim() || null : null,
    reactions: int(counts?.numLikes),
    comments: int(counts?.numComments),
    reposts: int(counts?.numShares),
    images: imagesOf(content),
    video_url: videoOf(content, deref),
    edited: ago === null ? null : /\bEdited\b/i.test(ago),
  };
}
