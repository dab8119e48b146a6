/**
 * What `/bizdir-reviews` reads from a business page: the business encid (`<meta name="yelp-biz-id">`,
 * or the `bizId`/`encBizId` of the page's embedded state), its alias and name, and the review
 * feed's persisted-query id when the page's inline scripts name it.
 *
 * @example readBizPage('<meta name="yelp-biz-id" content="Lw7NmZ3j-WEye97ywEmkXQ">').encid // 'Lw7NmZ3j-WEye97ywEmkXQ'
 */
export interface BizPage {
  encid: string | null;
  alias: string | null;
  name: string | null;
  documentId: string | null;
}

const ENCID = '([A-Za-z0-9_-]{22})';

function metaContent(html: string, attr: 'name' | 'property', key: string): string | null {
  const re = new RegExp(`<meta\\b[^>]*\\b${attr}=["']${key}["'][^>]*>`, 'i');
  const tag = re.exec(html)?.[0];
  const v = tag && /\bcontent=["']([^"']*)["']/i.exec(tag)?.[1];
  return v ? decodeEntities(v) : null;
}

/** Attribute values are HTML-escaped; names like "Von&#x27;s" read back as "Von's". */
function decodeEntities(s: string): string {
  return s
    .replace(/&#x([0-9a-f]+);/gi, (_, h) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(Number(n)))
    .replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

function encidOf(html: string): string | null {
  const meta = metaContent(html, 'name', 'yelp-biz-id');
  if (meta && new RegExp(`^${ENCID}$`).test(meta)) return meta;
  const m = new RegExp(`"(?:bizId|encBizId|businessId)"\\s*:\\s*"${ENCID}"`).exec(html)
    ?? new RegExp(`(?:bizId|encBizId)&quot;:&quot;${ENCID}&quot;`).exec(html);
  return m?.[1] ?? null;
}

function aliasOf(html: string): string | null {
  const canonical = /<link\b[^>]*rel=["']canonical["'][^>]*href=["']([^"']+)["']/i.exec(html)?.[1] ?? metaContent(html, 'property', 'og:url');
  const m = canonical && /\/biz\/([^/?#"']+)/.exec(canonical);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return m[1];
  }
}

function nameOf(html: string): string | null {
  const og = metaContent(html, 'property', 'og:title');
  // og:title reads "<name> - Updated 2024 - ... - Yelp": the name is the first part.
  if (og) return og.split(/ - (?:Updated|UPDATED|Yelp)\b/)[0].trim() || null;
  const h1 = /<h1\b[^>]*>([^<]+)<\/h1>/i.exec(html)?.[1];
  return h1 ? decodeEntities(h1).trim() : null;
}

/** The feed's document id, when an inline script declares the operation with one. */
function documentIdOf(html: string): string | null {
  const i = html.indexOf('GetBusinessReviewFeed');
  if (i < 0) return null;
  const near = html.slice(Math.max(0, i - 300), i + 3000);
  const m = /(?:__documentId|documentId)["']?\s*:\s*["']([0-9a-f]{64})["']/.exec(near);
  return m?.[1] ?? null;
}

export function readBizPage(html: string): BizPage {
  return { encid: encidOf(html), alias: aliasOf(html), name: nameOf(html), documentId: documentIdOf(html) };
}
