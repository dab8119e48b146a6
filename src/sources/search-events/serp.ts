/**
 * Helpers shared by the search-engine verticals (events, careers): the results URL, Google's
 * redirect links, schema.org JSON-LD blocks, relative dates ("3 days ago") and the reference
 * time a pure parser may use (the response's own `Date` header, never the clock).
 */
import type { FetchedResponse } from '../_kit/adapter.ts';
import { select, type El } from './html.ts';

export interface VerticalParams {
  pagesPerQuery?: number;
  uule?: string;
  language?: string;
  region?: string;
}

/**
 * One results page of a vertical (`ibp=htl;events`, `ibp=htl;jobs`); `start` pages by 10.
 * @example verticalUrl('jazz berlin', 'events', 1, { language: 'de' })
 *   // 'https://www.google.com/search?q=jazz%20berlin&ibp=htl%3Bevents&hl=de&start=10'
 */
export function verticalUrl(query: string, vertical: 'events' | 'jobs', page: number, p: VerticalParams): string {
  let u = `https://www.google.com/search?q=${encodeURIComponent(query)}&ibp=${encodeURIComponent(`htl;${vertical}`)}&hl=${encodeURIComponent(p.language || 'en')}`;
  if (p.region) u += `&gl=${encodeURIComponent(p.region.toLowerCase())}`;
  if (p.uule) u += `&uule=${encodeURIComponent(p.uule)}`;
  if (page > 0) u += `&start=${10 * page}`;
  return u;
}

/**
 * The target of a Google redirect (`/url?q=...`, `/url?url=...`), absolute URLs unchanged,
 * other relative links made absolute on www.google.com; null for `#` and `javascript:`.
 * @example unwrapLink('/url?q=https://a.example/x&sa=U') // 'https://a.example/x'
 */
export function unwrapLink(href: string | null | undefined): string | null {
  if (!href || href.startsWith('#') || /^javascript:/i.test(href)) return null;
  let u: URL;
  try {
    u = new URL(href, 'https://www.google.com/');
  } catch {
    return null;
  }
  if (/(^|\.)google\.[a-z.]+$/.test(u.hostname) && u.pathname === '/url') {
    const t = u.searchParams.get('q') ?? u.searchParams.get('url');
    if (t && /^https?:\/\//i.test(t)) return t;
  }
  return u.toString();
}

/** schema.org objects of every `application/ld+json` block (`@graph` flattened); bad JSON skipped. */
export function ldJsonObjects(root: El): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  const push = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(push);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (Array.isArray(o['@graph'])) (o['@graph'] as unknown[]).forEach(push);
      out.push(o);
    }
  };
  for (const s of select(root, 'script[type=application/ld+json]')) {
    const txt = typeof s.children[0] === 'string' ? s.children[0] : '';
    try {
      push(JSON.parse(txt));
    } catch {
      /* a broken block is skipped, the rest still count */
    }
  }
  return out;
}

/** A JSON-LD value as trimmed text; null when it is not a non-blank string. */
export function ldText(v: unknown): string | null {
  return typeof v === 'string' && v.trim() ? v.trim() : null;
}

/** True when a JSON-LD object is of the schema.org type (string or array form). */
export function isLdType(o: Record<string, unknown>, type: string): boolean {
  const t = o['@type'];
  return t === type || (Array.isArray(t) && t.includes(type));
}

/**
 * Reference time of a response (Unix s): its `Date` header; null when absent or unreadable.
 * @example refTime({ headers: { date: 'Tue, 02 Jun 2026 10:00:00 GMT' } } as FetchedResponse) // 1780394400
 */
export function refTime(res: Pick<FetchedResponse, 'headers'>): number | null {
  const h = res.headers ?? {};
  const v = h.date ?? h.Date ?? Object.entries(h).find(([k]) => k.toLowerCase() === 'date')?.[1];
  if (!v) return null;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : Math.floor(t / 1000);
}

const UNIT_S: Record<string, number> = { minute: 60, min: 60, hour: 3600, hr: 3600, day: 86400, week: 604800, month: 2592000, year: 31536000 };

/**
 * "3 days ago", "30+ days ago", "an hour ago", "yesterday", "just posted" → Unix s relative to
 * `now`; null for anything else or when `now` is unknown. English wording only.
 * @example agoToUnix('2 days ago', 1_000_000) // 827200
 */
export function agoToUnix(text: string | null | undefined, now: number | null): number | null {
  if (!text || now === null) return null;
  const s = text.toLowerCase().trim();
  if (/^(just posted|today|just now)$/.test(s)) return now;
  if (s === 'yesterday') return now - 86400;
  const m = /^(\d+|an?|one)\+?\s*(minute|min|hour|hr|day|week|month|year)s?\s+ago$/.exec(s);
  if (!m) return null;
  const n = /^\d+$/.test(m[1]) ? Number(m[1]) : 1;
  return now - n * UNIT_S[m[2]];
}

/**
 * ISO-8601 date or date-time → Unix s; a date without a time or zone reads as UTC midnight.
 * @example isoToUnix('2026-06-19T19:30:00+01:00') // 1781893800
 */
export function isoToUnix(v: unknown): number | null {
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(v)) return null;
  const t = Date.parse(v.length === 10 ? v + 'T00:00:00Z' : v);
  return Number.isNaN(t) ? null : Math.floor(t / 1000);
}

/** Text that says the vertical found nothing (so zero cards is an answer, not a layout change). */
export const EMPTY_MARKERS = /can['’]t find (any )?(events|jobs)|no (more )?(events|jobs)|did not match any|no results found/i;
