/**
 * Constructed (not captured) answers of the search results page's review dialog
 * (`/httpservice/web/PrivateLocalSearchUiDataService/GetLocalBoqProxy`), built from the public
 * descriptions of open-source review scrapers (facts only, 2026-09; see docs/sources-maps-more.md):
 * a `)]}'` line, then JSON whose `[1][10]` is the review block, reviews at `[2]`, the next page's
 * token at `[6]` (empty or absent on the last page). In a review: `[1]` rating, `[2][0]` the shown
 * (relative) date, `[2][2]` Unix milliseconds as a string, `[3]` author `[name, photo, profile link,
 * review count, photo count]`, `[5]` review id, `[26]` language, `[27]` text (HTML, `<br>` breaks).
 * No real answer is captured: every sample and test of this route is constructed, and says so.
 */
import type { ConstructedReview } from './constructed-page.ts';

/** One review of the dialog. */
export function constructedDialogReview(r: ConstructedReview): unknown[] {
  const authorId = r.authorId ?? '100000000000000000001';
  const out: unknown[] = [];
  out[1] = r.rating;
  out[2] = ['a week ago', null, String(r.ts * 1000)];
  out[3] = [r.author ?? 'Constructed Author', 'https://example.invalid/photo.png', `https://www.google.com/maps/contrib/${authorId}?hl=en`, 12, 3];
  out[5] = r.id;
  if (r.text !== undefined && r.text !== null) {
    out[26] = 'en';
    out[27] = r.text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/\n/g, '<br>');
  }
  return out;
}

/** A whole answer: `)]}'` line, then `[null, [..., [10]: [null, null, reviews, ..., [6]: token]]]`. */
export function constructedDialogAnswer(reviews: ConstructedReview[], nextToken: string | null): string {
  const block: unknown[] = [null, null, reviews.map(constructedDialogReview), null, null, null, nextToken ?? ''];
  const inner: unknown[] = [];
  inner[10] = block;
  return ")]}'\n" + JSON.stringify([null, inner]);
}
