/**
 * schema.org JSON-LD of a page: every object of every `<script type="application/ld+json">` block,
 * top-level arrays and `@graph` lists flattened (nested objects stay inside their parent), with a
 * lookup by `@type` that accepts the array form (`"@type": ["Restaurant", "LocalBusiness"]`) and
 * prefixed forms (`schema:Event`, `https://schema.org/Event`).
 *
 * @example
 *   const [biz] = jsonLdOfType(html, 'LocalBusiness');
 *   ldText(biz?.name); ldNumber(biz?.aggregateRating?.ratingValue)
 */
import { jsonScripts } from './embedded.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type JsonLd = Record<string, any>;

/**
 * Every JSON-LD object of a page, in page order; a block that is not JSON is skipped.
 * @example jsonLd('<script type="application/ld+json">{"@graph":[{"@type":"A"},{"@type":"B"}]}</script>').length // 2
 */
export function jsonLd(html: string): JsonLd[] {
  const out: JsonLd[] = [];
  const push = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(push);
    else if (v && typeof v === 'object') {
      const o = v as JsonLd;
      if (Array.isArray(o['@graph'])) o['@graph'].forEach(push);
      if (o['@type'] !== undefined || !Array.isArray(o['@graph'])) out.push(o);
    }
  };
  for (const block of jsonScripts(html, (s) => (s.attrs.type ?? '').trim().toLowerCase() === 'application/ld+json')) push(block);
  return out;
}

function bareType(t: string): string {
  return t.replace(/^(?:https?:\/\/schema\.org\/|schema:)/i, '');
}

/**
 * True when the object is of the type (string or array `@type`, prefix ignored).
 * @example isLdType({ '@type': ['Event', 'Thing'] }, 'Event') // true
 */
export function isLdType(o: JsonLd | null | undefined, type: string): boolean {
  const t = o?.['@type'];
  if (typeof t === 'string') return bareType(t) === type;
  return Array.isArray(t) && t.some((x) => typeof x === 'string' && bareType(x) === type);
}

/**
 * The page's JSON-LD objects of any of the types, in page order.
 * @example jsonLdOfType(html, 'Event', 'MusicEvent')
 */
export function jsonLdOfType(html: string | JsonLd[], ...types: string[]): JsonLd[] {
  const all = typeof html === 'string' ? jsonLd(html) : html;
  return all.filter((o) => types.some((t) => isLdType(o, t)));
}

/** A JSON-LD value as trimmed text (a `{ "@value" }` or one-element array unwrapped); null when blank. */
export function ldText(v: unknown): string | null {
  if (Array.isArray(v)) return v.length ? ldText(v[0]) : null;
  if (v && typeof v === 'object' && '@value' in v) return ldText((v as JsonLd)['@value']);
  if (typeof v === 'number') return String(v);
  return typeof v === 'string' && v.trim() ? v.trim() : null;
}

/** A JSON-LD number that may come as a string (`"4.5"`, `"1,204"`); null when not a number. */
export function ldNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  const t = ldText(v);
  if (t === null) return null;
  const n = Number(t.replace(/,/g, ''));
  return Number.isFinite(n) ? n : null;
}
