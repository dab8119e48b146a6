/**
 * `/engine-places-by-domain` parse (pure): read the places of one map search page, keep those whose
 * website belongs to the domain, ask for the next page while it may still hold matches.
 */
import type { FetchedResponse, ParseResult, QueryContext, Step } from '../_kit/adapter.ts';
import { SourceError } from '../_kit/errors.ts';
import { nodeOptionsOf } from '../_maps/node.ts';
import { PAGE_SIZE } from '../_maps/pb.ts';
import { readSearchBody, type SearchPage } from '../_maps/search-body.ts';
import { readState, type SearchState } from '../_maps/state.ts';
import { siteMatches } from './domain.ts';
import { maxPages, nextDomainStep, perQueryOf, type DomainState } from './plan.ts';
import type { NoResult, PlaceRecord, PlacesByDomainParams } from './record.ts';

type Ctx = QueryContext<PlacesByDomainParams>;

/**
 * Keeps the records whose `site` is on `domain`.
 * @example filterByDomain([{ site: 'https://a.com/x' }, { site: null }], 'a.com').length // 1
 */
export function filterByDomain<R extends Pick<PlaceRecord, 'site'>>(records: R[], domain: string): R[] {
  return records.filter((r) => siteMatches(r.site, domain));
}

/**
 * The places of a read search page that are on `domain`. None while some of the page's entries did
 * not read is `layout_changed`: the match may be among them, so "no place on this domain" would be a guess.
 * @example keptOf(readSearchBody(body), 'a.com')
 */
export function keptOf(page: SearchPage, domain: string): PlaceRecord[] {
  const kept = filterByDomain(page.places, domain);
  if (kept.length === 0 && page.unread > 0) {
    throw new SourceError('layout_changed', `places-by-domain: ${page.unread} of the page's ${page.unread + page.places.length} entries do not read as places`);
  }
  return kept;
}

/**
 * One map search page → the places on the domain, and the next page while it may hold more.
 * @example parse(step, res, ctx).records
 */
export function parse(step: Step, res: FetchedResponse, ctx: Ctx): ParseResult<PlaceRecord> {
  if (step.kind !== 'search') throw new SourceError('layout_changed', `places-by-domain: unknown step kind ${step.kind}`);
  const search = readState(step.state);
  const st = step.state as unknown as Partial<DomainState>;
  if (!search || typeof st.domain !== 'string') throw new SourceError('invalid_query', 'places-by-domain search step without a valid state');
  const cur = { ...search, domain: st.domain, page: Number(st.page ?? 0), kept: Number(st.kept ?? 0) } as SearchState & DomainState;
  // layout_changed when the body is not a map search answer
  const page = readSearchBody(res, nodeOptionsOf(ctx.query, ctx.params));
  const all = page.places;
  const kept = keptOf(page, cur.domain).map((r) => ({ ...r, query: ctx.query }));
  const perQuery = perQueryOf(ctx.params);
  const total = cur.kept + kept.length;
  const next: Step[] = [];
  // A full page may be followed by more; a page without any match after the first means the
  // search has drifted to places that only mention the domain.
  if (all.length >= PAGE_SIZE && total < perQuery && cur.page + 1 < maxPages(perQuery) && (cur.page === 0 || kept.length > 0)) {
    next.push(nextDomainStep(cur, all.length, total));
  }
  return { records: kept, next };
}

function keyOf(r: PlaceRecord): string | null {
  return r.place_id ?? r.engine_id ?? null;
}

/**
 * One query's records → deduplicated by place, capped at `perQuery`; none → the no-result marker.
 * @example finish([], { query: 'a.com', params: {} }) // [{ query: 'a.com', no_result: true }]
 */
export function finish(records: Array<PlaceRecord | NoResult>, ctx: Ctx): Array<PlaceRecord | NoResult> {
  const perQuery = perQueryOf(ctx.params);
  const seen = new Set<string>();
  const out: PlaceRecord[] = [];
  for (const r of records) {
    if ((r as NoResult).no_result === true) continue;
    const rec = r as PlaceRecord;
    const k = keyOf(rec);
    if (k) {
      if (seen.has(k)) continue;
      seen.add(k);
    }
    if (out.length < perQuery) out.push(rec);
  }
  return out.length ? out : [{ query: ctx.query, no_result: true }];
}
