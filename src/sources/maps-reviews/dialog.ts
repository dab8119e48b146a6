/**
 * The search results page's review dialog, the signed-out route to a place's reviews since the map
 * product's limited view (issue 34, item 3): `GET https://www.google.com/httpservice/web/
 * PrivateLocalSearchUiDataService/GetLocalBoqProxy?hl=<language>[&gl=<region>]&reqpld=<JSON>&msc=gwsrpc`.
 *
 * Facts from the public descriptions of open-source review scrapers (2026-09; no code taken): `reqpld`
 * is `[null, request]` whose `request[9]` is the argument list: `[1]` the sort order (1 most relevant,
 * 2 newest, 3 highest, 4 lowest rating), `[9]` the page size (10, as the dialog asks), `[11]` `[feature
 * id]`, `[16]` what the dialog asks to include, `[19]` the page token (empty on the first page), `[23]` 0.
 * The answer (`)]}'` first) keeps its review block at `[1][10]`: reviews at `[2]`, the next page's token
 * at `[6]` (empty on the last page). A review: `[1]` rating, `[2][2]` Unix milliseconds (a string),
 * `[3]` author `[name, photo, profile link, review count, photo count]`, `[5]` review id, `[26]`
 * language, `[27]` text (HTML: entities, `<br>` for line breaks). Owner answers, likes, photos and
 * translations are not described: those fields are null (`[]` for photos) on this route.
 *
 * No real answer is captured: the parser is built and tested on constructed answers
 * (constructed-dialog.ts), each labelled constructed.
 */
import { decodeHTML } from 'entities';
import { arr, at, int, str } from '../_kit/positional.ts';
import { SourceError } from '../_kit/errors.ts';
import { isoUtc } from '../_kit/dates.ts';
import { parseMaybeXssiJson } from '../_kit/xssi.ts';
import type { ReviewRecord, ReviewSort } from './record.ts';

export const DIALOG_PAGE_SIZE = 10;
/** A `review_pagination_id` / `lastPaginationId` of this route starts so: it resumes in the dialog. */
export const DIALOG_TOKEN_PREFIX = 'dlg:';
const SORT: Record<ReviewSort, number> = { most_relevant: 1, newest: 2, highest_rating: 3, lowest_rating: 4 };

/**
 * URL of one dialog page.
 * @example dialogPageUrl('0x1:0x2', { sort: 'newest', token: null }).includes('GetLocalBoqProxy') // true
 */
export function dialogPageUrl(engineId: string, o: { sort: ReviewSort; token?: string | null; language?: string; region?: string }): string {
  const args: unknown[] = new Array(24).fill(null);
  args[1] = SORT[o.sort];
  args[9] = DIALOG_PAGE_SIZE;
  args[11] = [engineId];
  args[16] = [1, 1, null, [[3], [4], [5], [6], [7]]];
  args[19] = o.token ?? '';
  args[23] = 0;
  const request: unknown[] = new Array(10).fill(null);
  request[9] = args;
  const q = new URLSearchParams({ hl: o.language || 'en' });
  if (o.region) q.set('gl', o.region.toLowerCase());
  q.set('reqpld', JSON.stringify([null, request]));
  q.set('msc', 'gwsrpc');
  return `https://www.google.com/httpservice/web/PrivateLocalSearchUiDataService/GetLocalBoqProxy?${q}`;
}

function secondsOfMillis(v: unknown): number | null {
  const n = typeof v === 'string' && /^\d{10,16}$/.test(v) ? Number(v) : typeof v === 'number' ? v : NaN;
  return Number.isFinite(n) && n > 0 ? Math.floor(n / 1000) : null;
}

function textOf(html: string | null): string | null {
  if (html === null) return null;
  return decodeHTML(html.replace(/<br\s*\/?>/gi, '\n'));
}

/**
 * One dialog review → a review record, or null when the entry is not a review (no id or no rating).
 * @example dialogReviewOf(block[2][0], 'dlg:d10')?.review_rating // 4
 */
export function dialogReviewOf(el: unknown, pageId: string | null): ReviewRecord | null {
  if (!Array.isArray(el)) return null;
  const id = str(el, 5);
  const rating = int(el, 1);
  if (!id || rating === null || rating < 1 || rating > 5) return null;
  const ts = secondsOfMillis(at(el, 2, 2));
  const link = str(el, 3, 2);
  return {
    review_id: id,
    author_id: /\/contrib\/(\d+)/.exec(link ?? '')?.[1] ?? null,
    author_title: str(el, 3, 0),
    author_link: link,
    author_image: str(el, 3, 1),
    review_text: textOf(str(el, 27)),
    review_rating: rating,
    review_timestamp: ts,
    review_datetime_utc: isoUtc(ts),
    review_likes: null,
    review_link: null,
    review_img_urls: [],
    owner_answer: null,
    owner_answer_timestamp: null,
    owner_answer_timestamp_datetime_utc: null,
    review_pagination_id: pageId,
    review_translated_text: null,
    review_language: str(el, 26),
    review_updated_timestamp: null,
    owner_answer_translated: null,
    review_source: null,
  };
}

/**
 * One dialog answer → its reviews (in order) and the next page's token (null on the last page).
 * An answer without the review block, or whose entries none read as reviews, is `layout_changed`:
 * never an empty success.
 */
export function parseDialogPage(body: string): { reviews: ReviewRecord[]; token: string | null; entries: number } {
  let json: unknown;
  try {
    json = parseMaybeXssiJson(body);
  } catch {
    throw new SourceError('layout_changed', 'review dialog answer is not JSON');
  }
  const block = arr(json, 1, 10);
  if (!block) throw new SourceError('layout_changed', 'review dialog answer has no review block at [1][10]');
  const entries = arr(block, 2);
  if (entries === null && at(block, 2) !== null) throw new SourceError('layout_changed', 'review dialog block has no review list at [2]');
  const rawToken = at(block, 6);
  if (rawToken !== null && rawToken !== undefined && typeof rawToken !== 'string') throw new SourceError('layout_changed', 'review dialog block has a page token at [6] that is not text');
  const token = typeof rawToken === 'string' && rawToken ? rawToken : null;
  const pageId = token ? `${DIALOG_TOKEN_PREFIX}${token}` : null;
  const reviews: ReviewRecord[] = [];
  for (const e of entries ?? []) {
    const r = dialogReviewOf(e, pageId);
    if (r) reviews.push(r);
  }
  if ((entries?.length ?? 0) > 0 && reviews.length === 0) throw new SourceError('layout_changed', `review dialog: none of ${entries!.length} entries reads as a review (id at [5], rating at [1])`);
  return { reviews, token, entries: entries?.length ?? 0 };
}
