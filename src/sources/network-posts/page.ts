/**
 * The logged-out company page: the company (JSON-LD Organization, the top card) and its post
 * cards (`article[data-activity-urn]` in the "Updates" section). Facts about the markup come from
 * public knowledge of the page (docs/sources-shortvideo-network.md); the constructed sample
 * `constructed-company-page.html` follows them. The markup helpers are the events source's until
 * the source kit's HTML helpers land (issue 9).
 */
import { first, parseHtml, select, textOf, textOrNull, type El } from '../search-events/html.ts';
import { isLdType, ldJsonObjects, ldText } from '../search-events/serp.ts';
import { postedFields, countOf } from './time.ts';
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

const URN_ID = /urn:li:(?:activity|share|ugcPost):(\d{15,20})/;
const ORG_ID = /urn:li:(?:organization|company|fsd_company):(\d{1,12})\b|[?&](?:amp;)?f_C=(\d{1,12})\b/;

/** A URL without the site's tracking parameters. */
function cleanLink(href: string | undefined): string | null {
  if (!href) return null;
  try {
    const u = new URL(href, 'https://www.linkedin.com/');
    for (const k of [...u.searchParams.keys()]) if (/^(trk|trackingId|lipi|rcm|utm_\w+)$/.test(k)) u.searchParams.delete(k);
    return u.href;
  } catch {
    return null;
  }
}

function videoOf(card: El): string | null {
  const v = first(card, 'video[data-sources], video[src], video source[src]');
  if (!v) return null;
  if (v.attrs['data-sources']) {
    try {
      const list = JSON.parse(v.attrs['data-sources']) as Array<{ src?: unknown }>;
      const src = Array.isArray(list) ? list.find((x) => typeof x?.src === 'string')?.src : undefined;
      if (typeof src === 'string') return src;
    } catch {
      /* fall through to src */
    }
  }
  return v.attrs.src || null;
}

function imagesOf(card: El): string[] {
  const out: string[] = [];
  for (const img of select(card, '[data-test-id=feed-images-content] img, .feed-images-content img')) {
    const u = img.attrs['data-delayed-url'] || img.attrs.src;
    if (u && /^https?:\/\//.test(u) && !out.includes(u)) out.push(u);
  }
  return out;
}

/** One card → post; null when the card names no post id. */
function cardPost(card: El): PostBody | null {
  // The activity id first (the card's own urn, else the post link's), then the share's ids.
  const link = first(card, 'a.main-feed-card__overlay-link, a[data-tracking-control-name*=main-feed-card_feed-article-content]');
  const href = link?.attrs.href ?? '';
  const id = [card.attrs['data-activity-urn'], /activity[-:](\d{15,20})/.exec(href)?.[0], card.attrs['data-featured-activity-urn'], card.attrs['data-attributed-urn']]
    .map((u) => (u ? (URN_ID.exec(u) ?? /activity-(\d{15,20})/.exec(u))?.[1] : undefined))
    .find(Boolean);
  if (!id) return null;
  const time = first(card, 'time');
  const when = textOf(time);
  const ago = when.replace(/\bEdited\b/i, '').replace(/[•·]/g, ' ').trim().split(/\s{2,}/)[0] || null;
  const commentary = first(card, '[data-test-id=main-feed-activity-card__commentary], .attributed-text-segment-list__content');
  const reactionsEl = first(card, '[data-test-id=social-actions__reactions], [data-id=social-actions__reactions]');
  const commentsEl = first(card, '[data-test-id=social-actions__comments], [data-id=social-actions__comments]');
  const repostsEl = first(card, '[data-test-id=social-actions__reposts], [data-id=social-actions__reposts]');
  return {
    post_id: id,
    post_url: cleanLink(link?.attrs.href) ?? `https://www.linkedin.com/feed/update/urn:li:activity:${id}/`,
    text: commentary ? textOf(commentary, true) || null : null,
    ...postedFields(id),
    posted_ago: ago,
    reactions: countOf(reactionsEl?.attrs['data-num-reactions'] ?? textOrNull(first(card, '[data-test-id=social-actions__reaction-count]')) ?? textOrNull(reactionsEl)),
    comments: countOf(commentsEl?.attrs['data-num-comments'] ?? textOrNull(commentsEl)),
    reposts: countOf(repostsEl?.attrs['data-num-reposts'] ?? textOrNull(repostsEl)),
    images: imagesOf(card),
    video_url: videoOf(card),
    edited: time ? /\bEdited\b/i.test(textOf(time.parent ?? time)) : null,
  };
}

function companyOf(root: El, html: string, finalUrl: string): Company {
  const org = ldJsonObjects(root).find((o) => isLdType(o, 'Organization') || isLdType(o, 'Corporation'));
  const canonical = first(root, 'link[rel=canonical]')?.attrs.href;
  const ogTitle = first(root, 'meta[property=og:title]')?.attrs.content;
  const name = ldText(org?.name) ?? textOrNull(first(root, 'h1.top-card-layout__title, h1')) ?? (ogTitle ? ogTitle.replace(/\s*\|\s*LinkedIn\s*$/i, '').trim() || null : null);
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
  const root = parseHtml(html);
  const cards = select(root, 'article[data-activity-urn], article.main-feed-activity-card, [data-test-id=main-feed-activity-card]');
  const company = companyOf(root, html, finalUrl);
  const hasUpdates = cards.length > 0 || first(root, '[data-test-id=updates], ul.updates__list, section.pp-section-updates') !== null;
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
