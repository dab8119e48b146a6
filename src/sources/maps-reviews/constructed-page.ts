/**
 * Constructed (not captured) listugcposts entries and pages for tests: the same positions the real
 * captures use (see review.ts), filled with made-up values, so paging and filters can be tested
 * on pages of any length.
 */

export interface ConstructedReview {
  id: string;
  rating: number;
  /** Unix seconds. */
  ts: number;
  text?: string | null;
  author?: string;
  authorId?: string;
  likes?: number;
  images?: string[];
  reply?: { text: string; ts: number };
}

/** One page entry `[review, null, entryToken]`. */
export function constructedEntry(r: ConstructedReview): unknown[] {
  const authorId = r.authorId ?? '100000000000000000001';
  const contrib = `https://www.google.com/maps/contrib/${authorId}?hl=en`;
  const meta: unknown[] = [
    '0x0:0xabc',
    null,
    r.ts * 1e6,
    r.ts * 1e6,
    [null, null, [`https://www.google.com/maps/contrib/${authorId}/reviews?hl=en`], null, null, [r.author ?? 'Constructed Author', 'https://example.invalid/photo.png', [contrib], authorId, null, 3, 0]],
    null,
    'a week ago',
  ];
  meta[13] = ['Google', null, null, null, 5];
  const body: unknown[] = [[r.rating], null, (r.images ?? []).map((u, i) => [`img${i}`, [`img${i}`, 0, 1, null, null, null, [u]]])];
  if (r.text !== undefined && r.text !== null) {
    body[14] = ['en'];
    body[15] = [[r.text, null, [0, r.text.length]]];
  }
  const reply: unknown[] = [null];
  if (r.reply) {
    reply[1] = r.reply.ts * 1e6;
    reply[2] = r.reply.ts * 1e6;
    reply[13] = ['en'];
    reply[14] = [[r.reply.text, null, [0, r.reply.text.length]]];
  }
  const links: unknown[] = [null, null, 1, [`https://www.google.com/maps/reviews/data=!4m8!14m7!1m6!2m5!1s${r.id}`], null, null, [null, [[1, r.likes ?? 0]]]];
  return [[r.id, meta, body, reply, links], null, `entry-${r.id}`];
}

/** A whole page body: `)]}'` line, then `[null, nextToken, entries]`. */
export function constructedPage(reviews: ConstructedReview[], nextToken: string | null): string {
  return ")]}'\n" + JSON.stringify([null, nextToken, reviews.map(constructedEntry)]);
}
