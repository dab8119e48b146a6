/**
 * Text the public reads (`/docs`, `/openapi.json`): declarations cite the internal interface and
 * decision documents, which a reader of a deployment cannot open; those citations are dropped here
 * (the sentence around them already states the rule). And a tiny, safe markdown renderer for the
 * descriptions: HTML is escaped first, then only `code`, **bold**, *emphasis*, [links](https://...)
 * and paragraphs/line breaks become markup.
 *
 * @example
 *   withoutCitations('Cursor of the page (decision 23).') // 'Cursor of the page.'
 *   markdownHtml('Use `limit`, see [docs](https://x.example).') // 'Use <code>limit</code>, see <a href="https://x.example">docs</a>.'
 */

const CITE = String.raw`(?:decisions?|interface|issue|records|section)\s+\d+(?:\.\d+)*(?:\s*(?:-|–|,|and)\s*\d+(?:\.\d+)*)*`;
const PAREN_ONLY = new RegExp(String.raw`\s*\(\s*(?:${CITE}\s*(?:,|;)?\s*)+\)`, 'gi');
const PAREN_LEAD = new RegExp(String.raw`\(\s*(?:${CITE}\s*(?:,|;)?\s*)+(?::|,)?\s*`, 'gi');
const LEAD = new RegExp(String.raw`^\s*(?:${CITE})\s*:\s*`, 'i');
const PER = new RegExp(String.raw`[,;]?\s*\b(?:per|see|as in|from)\s+${CITE}`, 'gi');
const BARE = new RegExp(String.raw`\s*\b${CITE}\b`, 'gi');

/**
 * The text with citations of internal documents removed: `(decision 23)` and `(interface 2.3,
 * decision 24)` go, `(decision 2: x)` keeps `(x)`, `per decision 23` goes, a leading
 * `Decision 24: ` goes, and any citation left is dropped.
 */
export function withoutCitations(s: string): string {
  if (!/\b(?:decisions?|interface|issue|records|section)\s+\d/i.test(s)) return s;
  const out = s
    .replace(PAREN_ONLY, '')
    .replace(PAREN_LEAD, '(')
    .replace(LEAD, '')
    .replace(PER, '')
    .replace(BARE, '')
    .replace(/\(\s*\)/g, '')
    .replace(/\s+([.,;:])/g, '$1')
    .replace(/ {2,}/g, ' ')
    .trim();
  return out.charAt(0).toUpperCase() + out.slice(1);
}

/** Every `description` and `summary` string of a JSON document, with citations removed (a copy). */
export function documentWithoutCitations<T>(doc: T): T {
  const walk = (v: unknown, key: string): unknown => {
    if (typeof v === 'string') return key === 'description' || key === 'summary' ? withoutCitations(v) : v;
    if (Array.isArray(v)) return v.map((x) => walk(x, ''));
    if (!v || typeof v !== 'object') return v;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]));
  };
  return walk(doc, '') as T;
}

export const escapeHtml = (s: unknown): string => String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function inline(text: string): string {
  // Code spans first, kept aside so their content is never read as emphasis or links.
  const codes: string[] = [];
  let s = text.replace(/`([^`]+)`/g, (_m, c: string) => {
    codes.push(`<code>${escapeHtml(c)}</code>`);
    return `\u0000${codes.length - 1}\u0000`;
  });
  s = escapeHtml(s)
    .replace(/\[([^\]]+)\]\((https?:\/\/[^\s)]+|\/[^\s)]*)\)/g, (_m, t: string, href: string) => `<a href="${href}">${t}</a>`)
    .replace(/\*\*([^*]+)\*\*/g, '<b>$1</b>')
    .replace(/(^|[\s(])\*([^*\s][^*]*)\*(?=[\s).,;:!?]|$)/g, '$1<i>$2</i>');
  return s.replace(/\u0000(\d+)\u0000/g, (_m, i: string) => codes[Number(i)]);
}

/**
 * Markdown subset → HTML: paragraphs (blank lines), line breaks, `- ` lists, inline code, bold,
 * emphasis and http(s)/site-relative links. Everything else is escaped text.
 */
export function markdownHtml(md: string): string {
  const blocks = md.replace(/\r\n?/g, '\n').split(/\n\s*\n/).map((b) => b.trim()).filter(Boolean);
  return blocks
    .map((b) => {
      const lines = b.split('\n');
      if (lines.every((l) => /^\s*[-*] /.test(l))) return `<ul>${lines.map((l) => `<li>${inline(l.replace(/^\s*[-*] /, ''))}</li>`).join('')}</ul>`;
      return `<p>${lines.map(inline).join('<br>')}</p>`;
    })
    .join('');
}
