/**
 * The logged-out company page: the company (JSON-LD Organization, the top card) and its post
 * cards (`article[data-activity-urn]` in the "Updates" section). Facts about the markup come from
 * public knowledge of the page (docs/sources-shortvideo-network.md); the constructed sample
 * `constructed-company-page.html` follows them.
 */
import { attr, first, parseHtml, select, textOf, textOrNull, type Document, type Element } from '../_kit/html.ts';
import { isLdType, jsonLd, ldText } from '../_kit/jsonld.ts';
import { countOf, postedFields } from './time.ts';
import { slugOfUrl } from './query.ts';
import type { PostBody } from './record.ts';

export interface Company {
  company_name: string | null;
  company_id: string | null;
  company_slug: string | null;
}

export interface CompanyPage extends Company {
  /** Null when the page has no updates section at all (as opposed to an empty one). */
  posts: PostBody[] | null;
}

const URN_ID = /urn:li:(?:activity|share|ugcPost):(\d{15,20})|activity-(\d{15,20})/;
const ORG_ID = /urn:li:(?:organization|company|fsd_company):(\d{1,12})\b|[?&](?:amp;)?f_C=(\d{1,12})\b/;
const CARDS = 'article[data-activity-urn], article.main-feed-activity-card, [data-test-id="main-feed-activity-card"]';

/** A URL without the site's tracking parameters. */
function cleanLink(href: string | null): string | null {
  if (!href) return null;
  try {
    const u = new URL(href, 'https://www.linkedin.com/');
    for (const k of [...u.searchParams.keys()]) if (/^(trk|trackingId|lipi|rcm|utm_\w+)$/.test(k)) u.searchParams.delete(k);
    return u.href;
  } catch {
    return null;
  }
}

function videoOf(card: Element): string | null {
  const v = first(card, 'video[data-sources], video[src], video source[src]');
  const sources = attr(v, 'data-sources');
  if (sources) {
    try {
      const list = JSON.parse(sources) as Array<{ src?: unknown }>;
      const src = Array.isArray(list) ? list.find((x) => typeof x?.src === 'string')?.src : undefined;
      if (typeof src === 'string') return src;
    } catch {
      /* fall through to src */
    }
  }
  return attr(v, 'src');
}

function imagesOf(card: Element): string[] {
  const out: string[] = [];
  for (const img of select(card, '[data-test-id="feed-images-content"] img, .feed-images-content img')) {
    const u = attr(img, 'data-delayed-url') || attr(img, 'src');
    if (u && /^https?:\/\//.test(u) && !out.includes(u)) out.push(u);
  }
  return out;
}

/** The number an element carries in an attribute, else in its printed text. */
function countAt(card: Element, css: string, dataAttr: string): number | null {
  const e = first(card, css);
  return countOf(attr(e, dataAttr) ?? textOrNull(e));
}

/** One card → post; null when the card names no post id. */
function cardPost(card: Element): PostBody | null {
  // The activity id first (the card's own urn, else the post link's), then the share's ids.
  const link = first(card, 'a.main-feed-card__overlay-link, a[data-tracking-control-name*="main-feed-card_feed-article-content"]');
  const href = attr(link, 'href');
  const id = [attr(card, 'data-activity-urn'), href, attr(card, 'data-featured-activity-urn'), attr(card, 'data-attributed-urn')]
    .map((u) => (u ? URN_ID.exec(u) : null))
    .map((m) => (m ? m[1] ?? m[2] : undefined))
    .find(Boolean);
  if (!id) return null;
  const time = first(card, 'time');
  const ago = textOf(time).replace(/\bEdited\b/i, '').replace(/[•·]/g, ' ').trim().split(/\s{2,}/)[0] || null;
  const commentary = first(card, '[data-test-id="main-feed-activity-card__commentary"], .attributed-text-segment-list__content');
  const reactionsEl = first(card, '[data-test-id="social-actions__reactions"], [data-id="social-actions__reactions"]');
  const reactionCount = textOrNull(first(card, '[data-test-id="social-actions__reaction-count"]'));
  return {
    post_id: id,
    post_url: cleanLink(href) ?? `https://www.linkedin.com/feed/update/urn:li:activity:${id}/`,
    text: commentary ? textOf(commentary, true) || null : null,
    ...postedFields(id),
    posted_ago: ago,
    reactions: countOf(attr(reactionsEl, 'data-num-reactions') ?? reactionCount ?? textOrNull(reactionsEl)),
    comments: countAt(card, '[data-test-id="social-actions__comments"], [data-id="social-actions__comments"]', 'data-num-comments'),
    reposts: countAt(card, '[data-test-id="social-actions__reposts"], [data-id="social-actions__reposts"]', 'data-num-reposts'),
    images: imagesOf(card),
    video_url: videoOf(card),
    edited: time ? /\bEdited\b/i.test(textOf(time.parent ?? time)) : null,
  };
}

function companyOf(doc: Document, html: string, finalUrl: string): Company {
  const org = jsonLd(html).find((o) => isLdType(o, 'Organization') || isLdType(o, 'Corporation'));
  const canonical = attr(first(doc, 'link[rel="canonical"]'), 'href');
  const ogTitle = attr(first(doc, 'meta[property="og:title"]'), 'content');
  const name = ldText(org?.name) ?? textOrNull(first(doc, 'h1.top-card-layout__title, h1')) ?? (ogTitle ? ogTitle.replace(/\s*\|\s*LinkedIn\s*$/i, '').trim() || null : null);
  const idMatch = ORG_ID.exec(html);
  return {
    company_name: name,
    company_id: idMatch ? (idMatch[1] ?? idMatch[2]) : null,
    company_slug: slugOfUrl(typeof org?.url === 'string' ? org.url : '') ?? (canonical ? slugOfUrl(canonical) : null) ?? slugOfUrl(finalUrl),
  };
}

/**
 * The company and its post cards, or null when the page is no company page at all.
 * @example companyPage(html, 'https://www.linkedin.com/company/microsoft/')?.posts?.[0].post_id
 */
export function companyPage(html: string, finalUrl: string): CompanyPage | null {
  const doc = parseHtml(html);
  const cards = select(doc, CARDS);
  const company = companyOf(doc, html, finalUrl);
  const hasUpdates = cards.length > 0 || first(doc, '[data-test-id="updates"], ul.updates__list, section.pp-section-updates') !== null;
  if (!company.company_name && !hasUpdates) return null;
  const posts: PostBody[] = [];
  const seen = new Set<string>();
  for (const c of cards) {
    const p = cardPost(c);
    if (p && !seen.has(p.post_id)) {
      seen.add(p.post_id);
      posts.push(p);
    }
  }
  return { ...company, posts: hasUpdates ? posts : null };
}
