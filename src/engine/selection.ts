/**
 * Which places a UI task keeps (docs/decisions.md "Task result selection"): its result `filters`,
 * `exactMatch` and `ignoreWithoutEmails` decide per place as a query's records are prepared, before
 * they are stored, so a place they remove is neither stored nor billed. The tests on fields the source
 * gives run before the enrichments (a place they remove is never enriched: no website fetched for it),
 * those on fields an enrichment writes after them (`selectionTests`). `dropEmailDuplicates` works
 * across the task's queries, on read (the result view and the file). The task's choices travel in
 * the request's stored parameters under SELECTION, which no query-string parameter can set.
 *
 * @example
 *   const keep = selectionTest({ [SELECTION]: { categories: ['dentist'] } }, 'dentist Adams, New York, US');
 *   keep?.({ type: 'Dentist' }) // true
 */
import { categoryKey, placeTypes } from '../store/businesses/category.ts';
import { passesFilters, type ResultFilter } from './result-filters.ts';
import { placeEnrichmentFields } from '../contract/records/enrichments.ts';

/** Stored-parameter key of a task's selection (not a declared parameter: only POST /tasks sets it). */
export const SELECTION = '_selection';

export interface Selection {
  filters?: ResultFilter[];
  /** exactMatch: the categories asked (empty: each query's own words are its category). */
  exactMatch?: { categories: string[] };
  ignoreWithoutEmails?: boolean;
  dropEmailDuplicates?: boolean;
}

type Rec = Record<string, unknown>;

export function selectionOf(params: Record<string, unknown>): Selection | undefined {
  const s = params[SELECTION];
  return s && typeof s === 'object' && !Array.isArray(s) ? (s as Selection) : undefined;
}

/** `word` is `text` or its first words. */
const wordPrefix = (word: string, text: string) => text === word || text.startsWith(`${word} `);

/**
 * The category a query asks: the longest category of the task whose key is the query's first words
 * (`dentist` for `dentist Adams, New York, US`), or undefined.
 */
export function askedCategory(categories: readonly string[], query: string): string | undefined {
  const q = categoryKey(query) ?? '';
  let best: string | undefined;
  for (const c of categories) {
    const k = categoryKey(c);
    if (k && wordPrefix(k, q) && (!best || k.length > best.length)) best = k;
  }
  return best;
}

/** exactMatch for one query: a place is kept when one of its types is the category asked; with no
 *  category of the task in the query (custom queries), when one of its types is the query's first words. */
function exactTest(categories: readonly string[], query: string): (rec: Rec) => boolean {
  const asked = askedCategory(categories, query);
  const q = categoryKey(query) ?? '';
  return asked
    ? (rec) => placeTypes(rec).some((t) => categoryKey(t) === asked)
    : (rec) => placeTypes(rec).some((t) => { const k = categoryKey(t); return !!k && wordPrefix(k, q); });
}

/** The e-mail addresses a place carries after the contacts enrichment (email_N, contacts[].email), lower-cased. */
export function emailsOf(rec: Rec): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(rec)) {
    if (/^email(_\d+)?$/.test(k) && typeof v === 'string' && v.trim()) out.push(v.trim().toLowerCase());
  }
  const contacts = rec.contacts;
  if (Array.isArray(contacts)) {
    for (const c of contacts) {
      const e = c && typeof c === 'object' ? (c as Rec).email : undefined;
      if (typeof e === 'string' && e.trim()) out.push(e.trim().toLowerCase());
    }
  }
  return [...new Set(out)];
}

/** A numbered field as its first member (`email_3_status` → `email_1_status`), the name records declare. */
export const firstMember = (name: string) => name.replace(/_\d+(?=_|$)/, '_1');

/** Whether an enrichment of the request writes the field at the head of `key` (it has no value before). */
function enrichmentWrites(key: string, params: Record<string, unknown>): boolean {
  const head = firstMember(key.split('.')[0]);
  if (Object.hasOwn(placeEnrichmentFields, head)) return true;
  // company_websites_finder fills `site` where the place had none.
  return head === 'site' && Array.isArray(params.enrichment) && params.enrichment.includes('company_websites_finder');
}

type Test = (rec: Rec) => boolean;
const all = (tests: Test[]): Test | undefined => (tests.length ? (rec) => tests.every((t) => t(rec)) : undefined);

/**
 * The per-place tests of a request's selection for one of its queries, by when they can run (each
 * undefined when it keeps every place): `before` the enrichments, the tests on fields the source gives
 * (`exactMatch`, filters such as `rating`), so the places they remove are never enriched; `after` them,
 * the filters on fields an enrichment writes and `ignoreWithoutEmails`.
 */
export function selectionTests(params: Record<string, unknown>, query: string): { before?: Test; after?: Test } {
  const s = selectionOf(params);
  if (!s) return {};
  const before: Test[] = [];
  const after: Test[] = [];
  const filters = s.filters ?? [];
  const late = filters.filter((f) => enrichmentWrites(f.key, params));
  const early = filters.filter((f) => !late.includes(f));
  if (early.length) before.push(passesFilters(early));
  if (s.exactMatch) before.push(exactTest(s.exactMatch.categories, query));
  if (late.length) after.push(passesFilters(late));
  if (s.ignoreWithoutEmails) after.push((rec) => emailsOf(rec).length > 0);
  return { before: all(before), after: all(after) };
}

/** The per-place test of a request's whole selection for one of its queries; undefined when it keeps every place. */
export function selectionTest(params: Record<string, unknown>, query: string): Test | undefined {
  const { before, after } = selectionTests(params, query);
  return all([before, after].filter((t): t is Test => !!t));
}

/**
 * dropEmailDuplicates on read: keeps a place unless one of its e-mail addresses was on a place kept
 * before it, in the task's order. Places without an address are kept (ignoreWithoutEmails drops those).
 */
export function firstOfEachEmail(seen: Set<string> = new Set()): (rec: Rec) => boolean {
  return (rec) => {
    const emails = emailsOf(rec);
    if (emails.some((e) => seen.has(e))) return false;
    for (const e of emails) seen.add(e);
    return true;
  };
}
