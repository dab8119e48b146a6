/**
 * The expected shape of a place record by what its page shows (issue 34, item 4), so a stub answer
 * (some sessions or exit IPs get a thinned page that still parses) is told from a whole one:
 *
 * - ids: a named place has its place id and its feature id (every place page and listing carries
 *   both; trackers report `place_id` missing on a few percent of stub answers);
 * - hours: when any day's hours are shown, all seven are (the product lists a closed day as
 *   `Closed`; a stub shows today's only);
 * - popular times, on a place page only (listings never carry them): a popular-times block that is
 *   there but empty; or none at all for an open place of a kind the product charts (food and drink,
 *   shops, leisure) with at least POPULAR_TIMES_REVIEWS reviews. The product charts popular times
 *   where it has enough visits, which is not readable from the page: captures show a 396-review
 *   restaurant with them and a 20-review one without, so the bound is set high, where a whole page
 *   without them would be rare. Category names are matched in English only.
 *
 * @example
 *   placeStubWhy({ ...rec, place_id: null, working_hours: { Monday: '9 AM–5 PM' } }, 'page')
 *   // 'no place_id; hours of 1 day of 7'
 */
import type { StubNote } from '../_kit/stub.ts';
import type { PlaceRecord } from './record.ts';

/** Where a record was read: a place page, or a listing of a search answer. */
export type PlaceView = 'page' | 'listing';

/** Reviews from which an open place of a charted kind is expected to show popular times. */
export const POPULAR_TIMES_REVIEWS = 1000;
const CHARTED_KINDS = /\b(restaurants?|caf[eé]s?|coffee|bars?|pubs?|bakery|bakeries|supermarkets?|grocery|stores?|shops?|shopping|malls?|museums?|gyms?|parks?|zoos?|pharmacy|pharmacies)\b/i;

/** What a record lacks that its page shows for such a place, or null when it is whole. `node`:
 *  the place node it was read from, when at hand (an empty popular-times block is seen there). */
export function placeStubWhy(rec: PlaceRecord, view: PlaceView, node?: unknown[]): string | null {
  if (!rec.name) return null; // not a place: the parsers' own refusals apply
  const miss: string[] = [];
  if (!rec.place_id) miss.push('no place_id');
  if (!rec.engine_id) miss.push('no feature id');
  const days = rec.working_hours ? Object.keys(rec.working_hours).length : 0;
  if (days > 0 && days < 7) miss.push(`hours of ${days} day${days === 1 ? '' : 's'} of 7`);
  if (view === 'page' && !rec.popular_times) {
    if (node && Array.isArray(node[84])) miss.push('an empty popular times block');
    else if (rec.business_status === 'OPERATIONAL' && (rec.reviews ?? 0) >= POPULAR_TIMES_REVIEWS && CHARTED_KINDS.test(`${rec.category ?? ''}, ${rec.subtypes ?? ''}`)) {
      miss.push(`no popular times (charted for a ${rec.category ?? rec.type} with ${rec.reviews} reviews)`);
    }
  }
  return miss.length ? miss.join('; ') : null;
}

/** The stubs among a page's records, as `ParseResult.stubs` reports them. */
export function placeStubs(records: readonly PlaceRecord[], view: PlaceView, nodes?: readonly (unknown[] | undefined)[]): StubNote[] {
  const out: StubNote[] = [];
  records.forEach((rec, k) => {
    const why = placeStubWhy(rec, view, nodes?.[k]);
    if (why) out.push({ key: rec.name ?? rec.engine_id ?? '?', why });
  });
  return out;
}
