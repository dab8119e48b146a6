/**
 * One review of the `/maps/rpc/listugcposts` RPC → a review record. A page is
 * `[?, nextPageToken, [[review, null, entryToken], ...]]`; inside `review` (positions checked on the
 * three real captures in fixtures/google-maps):
 *   [0] review id
 *   [1][2] / [1][3] created / edited, Unix microseconds; [1][13][0] source ("Google")
 *   [1][4][5] author: [0] name, [1] photo, [2][0] profile link, [3] id; [1][4][2][0] reviews link
 *   [2][0][0] rating; [2][2][j][1][6][0] photo URLs; [2][14][0] language;
 *   [2][15][0][0] text as written, [2][15][1][0] machine translation
 *   [3][1] owner reply time (µs); [3][14][0][0] reply text, [3][14][1][0] its translation
 *   [4][3][0] review link; [4][6][1] reactions as [type, count] (type 1: "helpful" likes)
 */
import { arr, int, num, str } from '../_kit/positional.ts';
import { isoUtc } from '../_kit/dates.ts';
import type { ReviewRecord } from './record.ts';

function secondsOfMicros(v: number | null): number | null {
  return v === null || v <= 0 ? null : Math.floor(v / 1e6);
}

/** The review node of a page entry (`[review, null, token]`), or the entry itself if it is one. */
export function reviewNodeOf(entry: unknown): unknown[] | null {
  const inner = arr(entry, 0);
  if (inner && typeof inner[0] === 'string') return inner;
  if (Array.isArray(entry) && typeof entry[0] === 'string' && Array.isArray(entry[1])) return entry;
  return null;
}

function likesOf(el: unknown[]): number | null {
  const reactions = arr(el, 4, 6, 1);
  if (!reactions) return null;
  let n = 0;
  for (const r of reactions) if (int(r, 0) === 1) n += int(r, 1) ?? 0;
  return n;
}

/** Photo URLs of a review; [] when it has none (the declared field is a list, never null). */
function imagesOf(el: unknown[]): string[] {
  const body = arr(el, 2);
  if (!body) return [];
  const out: string[] = [];
  for (const img of arr(body, 2) ?? []) {
    const u = str(img, 1, 6, 0);
    if (u) out.push(u);
  }
  return out;
}

function authorIdOf(el: unknown[]): string | null {
  const id = str(el, 1, 4, 5, 3);
  if (id) return id;
  const m = /\/contrib\/(\d+)/.exec(str(el, 1, 4, 2, 0) ?? str(el, 1, 4, 5, 2, 0) ?? '');
  return m ? m[1] : null;
}

/**
 * One page entry → review record, or null when the entry is not a review at all.
 * @example reviewOf(page[2][0], page[1])?.review_rating // 5
 */
export function reviewOf(entry: unknown, pageToken: string | null): ReviewRecord | null {
  const el = reviewNodeOf(entry);
  if (!el) return null;
  const ts = secondsOfMicros(num(el, 1, 2) ?? num(el, 1, 3));
  const replyTs = secondsOfMicros(num(el, 3, 1) ?? num(el, 3, 2));
  const replyText = str(el, 3, 14, 0, 0);
  return {
    review_id: str(el, 0),
    author_id: authorIdOf(el),
    author_title: str(el, 1, 4, 5, 0),
    author_link: str(el, 1, 4, 5, 2, 0) ?? str(el, 1, 4, 2, 0),
    author_image: str(el, 1, 4, 5, 1),
    review_text: str(el, 2, 15, 0, 0),
    review_rating: int(el, 2, 0, 0),
    review_timestamp: ts,
    review_datetime_utc: isoUtc(ts),
    review_likes: likesOf(el),
    review_link: str(el, 4, 3, 0),
    review_img_urls: imagesOf(el),
    owner_answer: replyText,
    owner_answer_timestamp: replyTs,
    owner_answer_timestamp_datetime_utc: isoUtc(replyTs),
    review_pagination_id: pageToken,
    review_translated_text: str(el, 2, 15, 1, 0),
    review_language: str(el, 2, 14, 0),
    review_updated_timestamp: secondsOfMicros(num(el, 1, 3)),
    owner_answer_translated: str(el, 3, 14, 1, 0),
    review_source: str(el, 1, 13, 0),
  };
}
