/**
 * The paging count check (issue 34, item 1): every paged list a query reads (src/sources/_kit/
 * tally.ts) is compared, when its paging ends, with what the answer said exists. A list the site
 * showed only in part (`limited`), or that ended with fewer than it said, makes the query end with a
 * typed reason (`limited_view` / `incomplete`) beside its records, which are kept and billed as
 * read: never a five-review answer served as a place's reviews.
 *
 * The open lists live in the query's checkpoint (StepState.tally), so a resumed query keeps its counts.
 *
 * @example
 *   const t = {}; tallyStep(t, [{ key: 'p', stated: 40, read: 20 }]); tallyStep(t, [{ key: 'p', read: 5, end: 'end' }]);
 *   shortfallNote(t) // 'incomplete: 1 list read short; p: read 25 of the 40 the answer states'
 */
import { shortBy, type PageTally, type ShortfallType } from '../sources/_kit/tally.ts';

/** What the checkpoint keeps: open lists by key, and the shortfalls found so far. */
export interface TallyState {
  open?: Record<string, { stated?: number; read: number }>;
  /** The first shortfall's type and text, and how many lists fell short. */
  short?: { type: ShortfallType; first: string; lists: number };
  /** The query resumed from a client's cursor: its lists were read from their middle, so what was
   *  read is not compared with what exists (the site's limited view still is a shortfall). */
  resumed?: boolean;
}

function fellShort(t: TallyState, type: ShortfallType, text: string): void {
  if (!t.short) t.short = { type, first: text, lists: 1 };
  else {
    t.short.lists += 1;
    // A site that asks to sign in is the reason to state first: it says what would help.
    if (type === 'limited_view' && t.short.type !== 'limited_view') Object.assign(t.short, { type, first: text });
  }
}

/** Adds one step's tallies; a list whose paging ended is compared and closed. */
export function tallyStep(t: TallyState, tallies: readonly PageTally[] | undefined): void {
  if (!tallies?.length) return;
  t.open ??= {};
  for (const x of tallies) {
    if (!x || typeof x.key !== 'string') continue;
    const o = (t.open[x.key] ??= { read: 0 });
    o.read += Number.isFinite(x.read) && x.read > 0 ? x.read : 0;
    if (typeof x.stated === 'number' && Number.isFinite(x.stated) && x.stated >= 0) o.stated = x.stated;
    if (!x.end) continue;
    delete t.open[x.key];
    const of = o.stated === undefined ? '' : ` of the ${o.stated} the answer states`;
    if (x.end === 'limited') fellShort(t, 'limited_view', `${x.key}: the site shows a signed-out visitor a part only (${x.why ?? 'limited view'}); read ${o.read}${of}`);
    else if (x.end === 'end' && !t.resumed && o.stated !== undefined && shortBy(o.stated, o.read)) fellShort(t, 'incomplete', `${x.key}: read ${o.read}${of}`);
  }
  if (!Object.keys(t.open).length) delete t.open;
}

/** The query's stored reason for its shortfalls (`<type>: <message>`), or undefined. */
export function shortfallNote(t: TallyState | undefined): string | undefined {
  const s = t?.short;
  if (!s) return undefined;
  return `${s.type}: ${s.lists} list${s.lists === 1 ? '' : 's'} read short; ${s.first}`;
}
