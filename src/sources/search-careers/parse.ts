/**
 * `/engine-search-careers` parse (pure). Readers, tried in order:
 *  1. job cards: the 2026 layout (`.EimVGf` cards with `data-share-url` … `htidocid=`; title
 *     `.tNxQIb`, company `.wHYlTd.a3jPc`, "place • via board" `.wHYlTd.FqK3wc`, facts in
 *     `span.Yf9oye` told apart by their aria-label "Posted …"/"Salary …"/"Employment Type …",
 *     description `span.OOyDTc`/`span.ejCXj`, qualifications under an `h4.XzFqK`) and the older
 *     list (`.iFjolb`/`.gws-plugins-horizon-jobs__li-ed`; `.BjJfJf`, `.vNEEBe`, `.Qk80Jf`,
 *     `.LL4CDc`/`.SuWscb`, `.HBvzbc`, `a.pMhGee`) - class names from public scrapers, no capture;
 *  2. schema.org `JobPosting` objects in JSON-LD blocks.
 * A page with neither, and no "no jobs" wording, is `layout_changed`.
 */
import type { FetchedResponse, ParseResult, QueryContext, Step } from '../_kit/adapter.ts';
import { SourceError } from '../_kit/errors.ts';
import { first, parseHtml, select, textOf, textOrNull, type Element } from '../_kit/html.ts';
import { jsonLd, isLdType, ldText } from '../_kit/jsonld.ts';
import { relativeToUnix, responseTime, toUnix } from '../_kit/dates.ts';
import { EMPTY_MARKERS, unwrapLink } from '../_search/serp.ts';
import { jobsPageStep } from './plan.ts';
import type { ApplyLink, CareersParams, JobRecord } from './record.ts';

type Ctx = QueryContext<CareersParams>;

const SCHEDULE = /\b(full[- ]time|part[- ]time|contractor|contract|internship|temporary|per diem|volunteer)\b/i;
const SALARY = /[$€£¥₹]|\b\d+(?:[.,]\d+)?\s*[KkMm]\b|\ban? (hour|year|month|week|day)\b/;
const POSTED = /\bago\b|\bposted\b|^(today|yesterday|just posted)$/i;

function splitVia(line: string | null): { location: string | null; via: string | null } {
  if (!line) return { location: null, via: null };
  const m = /^(.*?)\s*(?:•|·)?\s*\bvia\s+(.+)$/i.exec(line);
  if (!m) return { location: line.replace(/[•·]\s*$/, '').trim() || null, via: null };
  return { location: m[1].replace(/[•·]\s*$/, '').trim() || null, via: m[2].trim() || null };
}

function facts(card: Element): { posted: string | null; salary: string | null; schedule: string | null } {
  let posted: string | null = null;
  let salary: string | null = null;
  let schedule: string | null = null;
  for (const s of select(card, 'span.Yf9oye')) {
    const label = s.attribs['aria-label'] ?? '';
    const t = textOrNull(s);
    if (!t) continue;
    if (/^posted /i.test(label)) posted ??= t;
    else if (/^salary /i.test(label)) salary ??= t;
    else if (/^employment type /i.test(label)) schedule ??= t;
  }
  // Older layout: unlabeled chips; tell them apart by wording.
  for (const s of select(card, '.LL4CDc, .SuWscb, .I2Cbhb')) {
    const t = textOrNull(s);
    if (!t) continue;
    if (!posted && POSTED.test(t)) posted = t;
    else if (!schedule && SCHEDULE.test(t)) schedule = t;
    else if (!salary && SALARY.test(t)) salary = t;
  }
  return { posted, salary, schedule };
}

function qualificationsOf(card: Element): string[] {
  for (const h of select(card, 'h4.XzFqK, h4')) {
    if (!/qualifications/i.test(textOf(h)) || !h.parent) continue;
    return select(h.parent, 'li').map((li) => textOf(li)).filter(Boolean);
  }
  return [];
}

function applyLinksOf(card: Element): ApplyLink[] {
  const out: ApplyLink[] = [];
  for (const a of select(card, 'a')) {
    const label = textOf(a);
    if (!/\bapply\b/i.test(label) && !a.attribs.class?.includes('pMhGee')) continue;
    const link = unwrapLink(a.attribs.href);
    if (link && !out.some((x) => x.link === link)) out.push({ title: label || a.attribs.title || null, link });
  }
  return out;
}

function jobIdOf(card: Element): string | null {
  const holder = [card, ...select(card, '[data-share-url], [data-encoded-doc-id]')];
  for (const e of holder) {
    const m = /[?&#]htidocid=([^&]+)/.exec(e.attribs['data-share-url'] ?? '');
    if (m) return m[1];
    if (e.attribs['data-encoded-doc-id']) return e.attribs['data-encoded-doc-id'];
  }
  return null;
}

function cardToJob(card: Element, query: string, now: number | null): JobRecord | null {
  const title = textOrNull(first(card, '.tNxQIb, .BjJfJf'));
  if (!title) return null;
  const newLine = textOrNull(first(card, '.wHYlTd.FqK3wc'));
  const oldLines = select(card, '.Qk80Jf').map((e) => textOf(e)).filter(Boolean);
  const { location, via } = newLine
    ? splitVia(newLine)
    : { location: oldLines.find((l) => !/^via\s/i.test(l)) ?? null, via: oldLines.find((l) => /^via\s/i.test(l))?.replace(/^via\s+/i, '') ?? null };
  const f = facts(card);
  const descParts = select(card, 'span.OOyDTc, span.ejCXj, .HBvzbc').map((e) => textOf(e, true)).filter(Boolean);
  const apply = applyLinksOf(card);
  return {
    query,
    title,
    company: textOrNull(first(card, '.wHYlTd.a3jPc, .vNEEBe')),
    location,
    via,
    posted_date: f.posted,
    posted_timestamp: f.posted && now !== null ? relativeToUnix(f.posted, now) : null,
    schedule_type: f.schedule,
    salary_range: f.salary,
    description: descParts.length ? descParts.join('\n') : null,
    qualifications: qualificationsOf(card),
    apply_links: apply,
    application_url: apply[0]?.link ?? null,
    job_id: jobIdOf(card),
  };
}

function ldSalary(v: unknown): string | null {
  const s = v as { currency?: unknown; value?: { minValue?: unknown; maxValue?: unknown; value?: unknown; unitText?: unknown } } | undefined;
  if (!s || typeof s !== 'object' || !s.value || typeof s.value !== 'object') return ldText(v);
  const { minValue, maxValue, value, unitText } = s.value;
  const range = minValue !== undefined && maxValue !== undefined ? `${minValue}–${maxValue}` : value !== undefined ? String(value) : null;
  if (!range) return null;
  return [ldText(s.currency), range, typeof unitText === 'string' ? `a ${unitText.toLowerCase()}` : null].filter(Boolean).join(' ');
}

function ldToJob(o: Record<string, unknown>, query: string): JobRecord | null {
  const title = ldText(o.title);
  if (!title) return null;
  const org = o.hiringOrganization as Record<string, unknown> | undefined;
  const loc = (Array.isArray(o.jobLocation) ? o.jobLocation[0] : o.jobLocation) as Record<string, unknown> | undefined;
  const addr = loc?.address as Record<string, unknown> | string | undefined;
  const location = typeof addr === 'string' ? addr : addr ? [addr.addressLocality, addr.addressRegion, addr.addressCountry].map(ldText).filter(Boolean).join(', ') || null : null;
  const type = Array.isArray(o.employmentType) ? o.employmentType.join(', ') : ldText(o.employmentType);
  const url = typeof o.url === 'string' ? unwrapLink(o.url) : null;
  const desc = ldText(o.description);
  const id = o.identifier as Record<string, unknown> | string | undefined;
  return {
    query,
    title,
    company: ldText(org?.name) ?? ldText(org),
    location,
    via: null,
    posted_date: ldText(o.datePosted),
    posted_timestamp: toUnix(o.datePosted),
    schedule_type: type,
    salary_range: ldSalary(o.baseSalary),
    description: desc ? textOf(parseHtml(desc.replace(/<br\s*\/?>/gi, '\n')), true) || null : null,
    qualifications: [],
    apply_links: url ? [{ title: null, link: url }] : [],
    application_url: url,
    job_id: typeof id === 'string' ? id : ldText(id?.value),
  };
}

/**
 * The jobs of one results page, in page order; null when the page has none of the known shapes.
 * @example jobsOfHtml(html, 'python developer', 1780394400)?.length
 */
export function jobsOfHtml(html: string, query: string, now: number | null): JobRecord[] | null {
  const root = parseHtml(html);
  let cards = select(root, '.EimVGf');
  if (!cards.length) cards = select(root, '.iFjolb, .gws-plugins-horizon-jobs__li-ed');
  const fromCards = cards.map((c) => cardToJob(c, query, now)).filter((j): j is JobRecord => j !== null);
  if (fromCards.length) return fromCards;
  const fromLd = jsonLd(html).filter((o) => isLdType(o, 'JobPosting')).map((o) => ldToJob(o, query)).filter((j): j is JobRecord => j !== null);
  if (fromLd.length) return fromLd;
  return EMPTY_MARKERS.test(textOf(root)) ? [] : null;
}

/**
 * Step + response → jobs and the next page while pages hold jobs.
 * @example parse(step, res, { query: 'python developer', params: { pagesPerQuery: 3 } }).next
 */
export function parse(step: Step, res: FetchedResponse, ctx: Ctx): ParseResult<JobRecord> {
  if (step.kind !== 'jobs-page') throw new SourceError('layout_changed', `search-careers: unknown step kind ${step.kind}`);
  const jobs = jobsOfHtml(res.body, ctx.query, responseTime(res.headers));
  if (jobs === null) throw new SourceError('layout_changed', 'jobs page holds no job cards, no schema.org JobPosting and no "no jobs" notice');
  const page = Number(step.state?.page ?? 0);
  const pages = Math.max(1, ctx.params?.pagesPerQuery ?? 1);
  const next = jobs.length > 0 && page + 1 < pages ? [jobsPageStep(ctx.query.trim(), page + 1, ctx.params ?? {})] : [];
  return { records: jobs, next };
}
