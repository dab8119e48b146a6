/**
 * Never a silent truncation (issue 34, item 1): what one step says about one paged list of its
 * query (a place's reviews, a thread's comments, a search's results), so the engine can compare
 * what was read with what the answer says exists (src/engine/tally.ts) and end a query that fell
 * short with a typed reason in `errors` (`limited_view`, `incomplete`), its records kept and billed.
 *
 * The adapter reports facts only; the engine keeps the counts across steps (and resumes), decides,
 * and writes the reason.
 *
 * @example
 *   // a reviews page of a place that says it has 120 reviews, 20 read, more to come
 *   { records, next, tallies: [{ key: '0x1:0x2', stated: 120, read: 20 }] }
 *   // the five-review page without a token: the site's limited view
 *   { records, tallies: [{ key: '0x1:0x2', read: 5, end: 'limited', why: 'five reviews and no page token' }] }
 */

/** How a list's paging ended at this step. */
export type TallyEnd =
  /** The site gave no more (no next token, an empty page): read is compared with stated. */
  | 'end'
  /** The query's own bound stopped it (a limit, a cutoff, a rating bound): never a shortfall. */
  | 'enough'
  /** The site showed a signed-out visitor a part only (a 403, a sign-in prompt, a page cut short):
   *  a shortfall whatever the counts. */
  | 'limited';

export interface PageTally {
  /** Which list (one query may page several: each place of a search). */
  key: string;
  /** What the answer says exists, when it says it (the last one stated is kept). */
  stated?: number;
  /** Items of this list this step read from the site, before the query's own filters. */
  read: number;
  /** Set on the step that ends the list's paging. */
  end?: TallyEnd;
  /** With `limited`: what the site showed, in a few words (no URL, no secret). */
  why?: string;
}

/** The reason types a shortfall ends a query with (see docs/paging.md). */
export const SHORTFALL_TYPES = ['limited_view', 'incomplete'] as const;
export type ShortfallType = (typeof SHORTFALL_TYPES)[number];

/**
 * Counts the site and a list's own count may differ by a little (a review removed between the place
 * page and the last reviews page, a spam-filtered one the count still holds): up to 1 % of the stated
 * count, rounded down, is not a shortfall. A five-review page of a 120-review place is.
 */
export function shortBy(stated: number, read: number): boolean {
  return read < stated - Math.floor(stated / 100);
}
