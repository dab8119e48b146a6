/**
 * `/maps/reviews` parse (pure) and finish. `parse` turns each response into intermediate items
 * (a place header, reviews) plus the next steps; `finish` folds one query's items into one element
 * per place (decision 24).
 */
import type { FetchedResponse, ParseResult, QueryContext, Step } from '../_kit/adapter.ts';
import { arr, at, str } from '../_kit/positional.ts';
import { SourceError } from '../_kit/errors.ts';
import { parseMaybeXssiJson } from '../_kit/xssi.ts';
import { appInitState } from '../_maps/html.ts';
import { nodeOptionsOf } from '../_maps/node.ts';
import { looksLikeHtml } from '../_maps/place-parse.ts';
import { placeStep } from '../_maps/place-step.ts';
import type { PlaceRecord } from '../_maps/record.ts';
import { classifyQuery } from '../_maps/query.ts';
import { firstSearchStep } from '../_maps/search-step.ts';
import { PAGE_SIZE as SEARCH_PAGE_SIZE } from '../_maps/pb.ts';
import { parseSearchBody } from '../_maps/search-body.ts';
import { readState, searchStep } from '../_maps/state.ts';
import { placeOfPage, summaryOf, type PlaceSummary } from './place.ts';
import type { StubNote } from '../_kit/stub.ts';
import { placeStubs } from '../_maps/stub.ts';
import { dialogStep, effectiveSort, firstReviewsStep, knownPlace, localeOf, type KnownPlace, pageSizeFor, reviewsLimitOf, reviewsStep, routeOf, settingsOf, statedOf, type ReviewsPageState } from './plan.ts';
import { parseDialogPage } from './dialog.ts';
import { limitedViewOf, pageTally } from './limited.ts';
import { reviewOf } from './review.ts';
import type { ReviewRecord, ReviewsElement, ReviewsItem, ReviewsOutput, ReviewsParams } from './record.ts';

export { DEFAULT_REVIEWS_LIMIT } from './plan.ts';

type Item = ReviewsItem | { item: 'none' };
type Ctx = QueryContext<ReviewsParams>;


function placeKey(s: PlaceSummary): string {
  return s.engine_id ?? s.place_id ?? s.name ?? '';
}

/** Place header item plus its first reviews page (none when the place has no reviews). */
function startPlace(s: PlaceSummary, token: string | null, p: ReviewsParams, own: KnownPlace | null = null): { item: Item; next: Step[] } {
  const key = placeKey(s);
  const next: Step[] = [];
  if (s.engine_id && s.reviews !== 0) next.push(firstPage(s.engine_id, key, token, p, own, statedOf(s, token)));
  return { item: { item: 'place', key, place: s }, next };
}

function firstPage(engineId: string, key: string, token: string | null, p: ReviewsParams, own: KnownPlace | null, stated: number | undefined): Step {
  return firstReviewsStep(engineId, token, { key, engineId, got: 0, page: 0, token, cutoff: own?.cutoff, limit: own?.limit, stated }, p, pageSizeFor(p, 0, own?.limit));
}

/** A found place → its header item and first reviews page (and whether its page was a stub). */
function placeFound({ rec, stubs }: { rec: PlaceRecord; stubs: StubNote[] }, ctx: Ctx): ParseResult<Item> {
  const { item, next } = startPlace(summaryOf(rec), ctx.params.lastPaginationId || null, ctx.params, knownPlace(ctx));
  return stubs.length ? { records: [item], next, stubs } : { records: [item], next };
}

function parsePlace(res: FetchedResponse, ctx: Ctx): ParseResult<Item> {
  const found = placeOfPage(res, nodeOptionsOf(ctx.query, ctx.params));
  // A well-formed map page without a place: the id names nothing (billed as one, decision 20).
  if (!found) return { records: [{ item: 'none' }] };
  return placeFound(found, ctx);
}

/** A followed short link: the place on the final page, or the step its final URL names. */
function parseResolve(step: Step, res: FetchedResponse, ctx: Ctx): ParseResult<Item> {
  if (looksLikeHtml(res.body) && appInitState(res.body)) {
    const found = placeOfPage(res, nodeOptionsOf(ctx.query, ctx.params));
    if (found) return placeFound(found, ctx);
  }
  const form = classifyQuery(res.url);
  if (form.form === 'phrase') return { records: [], next: [firstSearchStep(form.q, settingsOf(ctx.params), form.camera ?? null)] };
  if ((form.form === 'place_id' || form.form === 'cid' || form.form === 'engine_id' || form.form === 'place_url') && res.url !== step.url) {
    return { records: [], next: [placeStep(form, localeOf(ctx.params))] };
  }
  throw new SourceError('layout_changed', `short link ${step.url} led to ${res.url}, which names no place or search`);
}

function parseSearch(step: Step, res: FetchedResponse, ctx: Ctx): ParseResult<Item> {
  const state = readState(step.state);
  if (!state) throw new SourceError('invalid_query', 'search step without a valid state');
  const places = parseSearchBody(res, nodeOptionsOf(ctx.query, ctx.params)); // layout_changed when not a search answer
  const want = Math.max(1, ctx.params.limit ?? 1);
  if (places.length === 0) return { records: state.got > 0 ? [] : [{ item: 'none' }] };
  const records: Item[] = [];
  const next: Step[] = [];
  const taken: PlaceRecord[] = [];
  let n = state.got;
  for (const rec of places) {
    if (n >= want) break;
    taken.push(rec);
    // Only the first place of a query can resume from a given page token.
    const token = n === 0 ? ctx.params.lastPaginationId || null : null;
    const started = startPlace(summaryOf(rec), token, ctx.params);
    records.push(started.item);
    next.push(...started.next);
    n++;
  }
  if (n < want && places.length >= SEARCH_PAGE_SIZE) next.push(searchStep({ ...state, offset: state.offset + places.length, got: n }));
  // Listings short of a listing's shape (_maps/stub.ts): the page is asked again from another identity.
  const stubs = placeStubs(taken, 'listing');
  return stubs.length ? { records, next, stubs } : { records, next };
}

/**
 * One page's reviews (either route) → review items, and whether paging goes on: stops at
 * `reviewsLimit`, at the first review older than `cutoff`, at the first rating past `cutoffRating`
 * (highest/lowest order), or when the page has no next token (or repeats the one just used).
 */
function takePage(st: Partial<ReviewsPageState>, page: Array<ReviewRecord | null>, token: string | null, ctx: Ctx): { records: Item[]; got: number; read: number; stop: boolean; more: boolean } {
  const key = String(st.key ?? '');
  const p = ctx.params;
  const sort = effectiveSort(p);
  const limit = st.limit !== undefined ? st.limit : reviewsLimitOf(p);
  let got = Number(st.got ?? 0);
  let stop = false;
  let read = 0;
  const cutoff = st.cutoff !== undefined ? st.cutoff : p.cutoff;
  // A place the caller knew (no place page was fetched) comes with its first reviews page.
  const records: Item[] = st.place && !st.page ? [{ item: 'place', key, place: st.place }] : [];
  for (const r of page) {
    if (!r) continue;
    read++;
    if (limit > 0 && got >= limit) {
      stop = true;
      break;
    }
    if (cutoff && r.review_timestamp !== null && r.review_timestamp < cutoff) {
      stop = true;
      break;
    }
    if (p.cutoffRating !== undefined && p.cutoffRating !== null && r.review_rating !== null) {
      if ((sort === 'highest_rating' && r.review_rating < p.cutoffRating) || (sort === 'lowest_rating' && r.review_rating > p.cutoffRating)) {
        stop = true;
        break;
      }
    }
    if (p.ignoreEmpty && !r.review_text) continue;
    records.push({ item: 'review', key, review: r });
    got++;
  }
  if (limit > 0 && got >= limit) stop = true;
  // A token equal to the one just used would loop forever.
  const more = !stop && token !== null && token !== (st.token ?? null) && page.length > 0;
  return { records, got, read, stop, more };
}

/** The state of a list's next page (either route). */
function nextState(st: Partial<ReviewsPageState>, got: number, token: string | null): ReviewsPageState {
  const key = String(st.key ?? '');
  return { key, engineId: String(st.engineId ?? key), got, page: Number(st.page ?? 0) + 1, token, cutoff: st.cutoff, limit: st.limit };
}

/** One `listugcposts` page → review items and the next page; the limited view ends the list said so,
 *  or (route `auto`) moves it to the review dialog from its start. */
function parseReviewsPage(step: Step, res: FetchedResponse, ctx: Ctx): ParseResult<Item> {
  const st = (step.state ?? {}) as Partial<ReviewsPageState>;
  const key = String(st.key ?? '');
  const header: Item[] = st.place && !st.page ? [{ item: 'place', key, place: st.place }] : [];
  const p = ctx.params;
  const limited = limitedViewOf(res);
  if (limited) return limitedPage(st, header, limited, p);
  const body = parseMaybeXssiJson(res.body);
  if (!Array.isArray(body) || body.length < 2) throw new SourceError('layout_changed', 'reviews page is not a JSON array of [?, token, reviews]');
  const entries = arr(body, 2);
  const rawToken = at(body, 1);
  if ((entries === null && at(body, 2) !== null) || (rawToken !== null && typeof rawToken !== 'string')) {
    throw new SourceError('layout_changed', 'reviews page has neither a review list at [2] nor a page token at [1]');
  }
  const token = str(body, 1) || null;
  const page = (entries ?? []).map((e) => reviewOf(e, token));
  const t = takePage(st, page, token, ctx);
  const tally = pageTally({ key, stated: st.stated, page: Number(st.page ?? 0), read: t.read, token, stop: t.stop, more: t.more });
  // Five reviews and no token from a place that states more: the limited view too.
  if (tally.end === 'limited' && routeOf(p) === 'auto') return limitedPage(st, header, tally.why!, p);
  const next: Step[] = [];
  if (t.more) next.push(reviewsStep(String(st.engineId ?? key), token, nextState(st, t.got, token), p, pageSizeFor(p, t.got, st.limit)));
  return { records: t.records, next, cursor: t.more ? token : null, tallies: [tally] };
}

/** A limited-view answer: route `map` ends the list with `limited_view`; `auto` asks the review dialog
 *  from the list's start instead (the reviews of the limited page are dropped: the dialog has them). */
function limitedPage(st: Partial<ReviewsPageState>, header: Item[], why: string, p: ReviewsParams): ParseResult<Item> {
  const key = String(st.key ?? '');
  if (routeOf(p) === 'auto' && !st.page && !st.token) {
    const engineId = String(st.engineId ?? key);
    const state: ReviewsPageState = { key, engineId, got: 0, page: 0, token: null, cutoff: st.cutoff, limit: st.limit, place: st.place, stated: st.stated };
    return { records: [], next: [dialogStep(engineId, null, state, p)] };
  }
  return { records: header, tallies: [{ key, stated: st.stated, read: 0, end: 'limited', why }] };
}

/** One review dialog page → review items and the next page (never the limited view: 10 a page, with tokens). */
function parseDialogStep(step: Step, res: FetchedResponse, ctx: Ctx): ParseResult<Item> {
  const st = (step.state ?? {}) as Partial<ReviewsPageState>;
  const key = String(st.key ?? '');
  const { reviews, token } = parseDialogPage(res.body);
  const t = takePage(st, reviews, token, ctx);
  const next: Step[] = [];
  if (t.more) next.push(dialogStep(String(st.engineId ?? key), token, nextState(st, t.got, token), ctx.params));
  const tally = { key, read: t.read, ...(st.stated !== undefined ? { stated: st.stated } : {}), ...(t.more ? {} : { end: t.stop ? 'enough' as const : 'end' as const }) };
  return { records: t.records, next, cursor: t.more ? token : null, tallies: [tally] };
}

/**
 * Step + response → items. Never throws on a shape it half-knows; a response with none of the
 * expected data is `SourceError('layout_changed')`.
 * @example parse(step, { status: 200, url, headers: {}, body }, { query, params: {} }).records
 */
export function parse(step: Step, res: FetchedResponse, ctx: Ctx): ParseResult<Item> {
  switch (step.kind) {
    case 'place':
      return parsePlace(res, ctx);
    case 'search':
      return parseSearch(step, res, ctx);
    case 'resolve':
      return parseResolve(step, res, ctx);
    case 'reviews-page':
      return parseReviewsPage(step, res, ctx);
    case 'reviews-dialog':
      return parseDialogStep(step, res, ctx);
    default:
      throw new SourceError('layout_changed', `maps-reviews: unknown step kind ${step.kind}`);
  }
}

/**
 * One query's items → one element per place (in order found), reviews deduplicated by id and
 * capped at `reviewsLimit`; a query that found no place → one `{query, no_result: true}`.
 * @example finish(items, ctx)[0].reviews_data.length
 */
export function finish(items: Array<Item | ReviewsOutput>, ctx: Ctx): ReviewsOutput[] {
  const limit = reviewsLimitOf(ctx.params);
  const byKey = new Map<string, { el: ReviewsElement; seen: Set<string> }>();
  const pending: Array<{ key: string; review: ReviewRecord }> = [];
  const passthrough: ReviewsOutput[] = [];
  for (const it of items) {
    if (!it || typeof it !== 'object') continue;
    if (!('item' in it)) {
      passthrough.push(it); // already finished (finish applied twice)
      continue;
    }
    if (it.item === 'place' && !byKey.has(it.key)) byKey.set(it.key, { el: { query: ctx.query, ...it.place, reviews_data: [] }, seen: new Set() });
    else if (it.item === 'review') pending.push({ key: it.key, review: it.review });
  }
  for (const { key, review } of pending) {
    const slot = byKey.get(key);
    if (!slot) continue;
    const id = review.review_id ?? '';
    if (id && slot.seen.has(id)) continue;
    if (limit > 0 && slot.el.reviews_data.length >= limit) continue;
    if (id) slot.seen.add(id);
    slot.el.reviews_data.push(review);
  }
  const out: ReviewsOutput[] = [...passthrough, ...[...byKey.values()].map((s) => s.el)];
  return out.length ? out : [{ query: ctx.query, no_result: true }];
}

export type { Item as ReviewsParseItem };
