/**
 * `/hotels-search` requests: one `batchexecute` call of the Travel front end's `AtySUc` RPC per
 * answer (request slots as documented by the open-source `stays` client and travel-ops notes):
 *
 *   POST https://www.google.com/_/TravelFrontendUi/data/batchexecute?rpcids=AtySUc&hl=..&gl=..&rt=c
 *   f.req=[[["AtySUc","[text,[1,party,[null,dates],null,filters],meta]",null,"1"]]]
 *
 * - party: null for two adults, else `[[[3] per adult, [2,12] per child], 1]`;
 * - dates: `[null, [[y,m,d],[y,m,d],nights], null, null, null, [null, children]]`;
 * - filters: `[[amenities, classes, null, free cancellation, sort, null, currency, brands], null, [], [null, null, 1]]`;
 * - meta: `[1, null, null, null, null, entity key, 13, null, 0]`: an entity key asks for that hotel.
 *
 * An answer holds about 18 hotels and has no further pages. To go past that, the same search is
 * asked again in other orders and per hotel class (VARIANTS), until `limit` distinct hotels or
 * the variants run out; each step carries the entity keys found so far, so no hotel comes twice.
 * `next_page_cursor` and the `cursor` parameter are the runner's (src/engine/cursor.ts): it signs
 * the steps still to run.
 */
import type { QueryContext, Step } from '../_kit/adapter.ts';
import { fReqBody } from '../_kit/batchexecute.ts';
import { readHotelsQuery, type HotelsQuery } from './query.ts';
import type { HotelsSearchParams } from './record.ts';

export const RPC_ID = 'AtySUc';
export const ENDPOINT = 'https://www.google.com/_/TravelFrontendUi/data/batchexecute';

/** Orders (sort slot: 3 lowest price, 8 highest rating, 13 most reviewed) and class filters. */
export const VARIANTS: ReadonlyArray<{ sort: number | null; stars: number[] | null }> = [
  { sort: null, stars: null },
  { sort: 3, stars: null },
  { sort: 8, stars: null },
  { sort: 13, stars: null },
  { sort: 3, stars: [2] },
  { sort: 3, stars: [3] },
  { sort: 3, stars: [4] },
  { sort: 3, stars: [5] },
  { sort: 3, stars: [1] },
];

/** Step state: which variant this answer is, and the entity keys found so far. */
export interface HotelsState {
  variant: number;
  seen: string[];
  [k: string]: unknown;
}

const ymd = (s: string) => s.split('-').map(Number);

function nights(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

/**
 * The RPC's inner request.
 * @example innerRequest(readHotelsQuery('hotels in rome'), 0)[0] // 'hotels in rome'
 */
export function innerRequest(q: HotelsQuery, variant: number): unknown[] {
  const v = VARIANTS[variant] ?? VARIANTS[0]!;
  const party = q.adults !== 2 || q.children > 0
    ? [[...Array.from({ length: q.adults }, () => [3]), ...Array.from({ length: q.children }, () => [2, 12])], 1]
    : null;
  const dates = q.checkIn && q.checkOut
    ? [null, [null, [ymd(q.checkIn), ymd(q.checkOut), nights(q.checkIn, q.checkOut)], null, null, null, [null, q.children]]]
    : null;
  const filters = [[null, v.stars, null, null, v.sort, null, q.currency, null], null, [], [null, null, 1]];
  const meta = [1, null, null, null, null, q.entityKey, 13, null, 0];
  return [q.text, [1, party, dates, null, filters], meta];
}

/** The step of one variant of a query. */
export function searchStep(q: HotelsQuery, state: HotelsState): Step {
  const qs = new URLSearchParams({ rpcids: RPC_ID, hl: q.language });
  if (q.region) qs.set('gl', q.region);
  qs.set('rt', 'c');
  return {
    kind: q.entityKey ? 'hotel' : 'search',
    url: `${ENDPOINT}?${qs}`,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' },
    body: fReqBody(RPC_ID, innerRequest(q, state.variant)),
    expect: 'text',
    state,
  };
}

/** @example plan({ query: 'hotels in rome', params: { limit: 20 } })[0].method // 'POST' */
export function plan(ctx: QueryContext<HotelsSearchParams>): Step[] {
  const q = readHotelsQuery(ctx.query);
  return [searchStep(q, { variant: 0, seen: [] })];
}
