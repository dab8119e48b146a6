/**
 * `/engine-places-by-domain` steps: a map search (maps-search's URL builder) with the registrable
 * domain as the phrase, paged by 20 while full pages keep coming and fewer than `perQuery` places
 * matched.
 */
import type { QueryContext, Step } from '../_kit/adapter.ts';
import { SourceError } from '../_kit/errors.ts';
import { MAX_LIMIT, searchSettings } from '../_maps/params.ts';
import { PAGE_SIZE } from '../_maps/pb.ts';
import { firstSearchStep } from '../_maps/search-step.ts';
import { searchStep, type SearchState } from '../_maps/state.ts';
import { registrableDomain } from './domain.ts';
import { DEFAULT_PER_QUERY, type PlacesByDomainParams } from './record.ts';

/** What this endpoint adds to a maps-search step state. */
export interface DomainState {
  domain: string;
  page: number;
  /** Matching places kept by earlier pages. */
  kept: number;
}

/**
 * Pages at most: enough for `perQuery` places if every one matched, plus one, since the search
 * also returns places that merely mention the domain.
 * @example maxPages(100) // 6
 */
export function maxPages(perQuery: number): number {
  return Math.ceil(Math.max(1, perQuery) / PAGE_SIZE) + 1;
}

export function perQueryOf(p: PlacesByDomainParams | undefined): number {
  const n = p?.perQuery;
  return typeof n === 'number' && n > 0 ? Math.min(Math.floor(n), MAX_LIMIT) : DEFAULT_PER_QUERY;
}

/** The next search page of a domain query. */
export function nextDomainStep(prev: SearchState & DomainState, pageLength: number, kept: number): Step {
  const s = searchStep({ ...prev, offset: prev.offset + pageLength, got: kept });
  return { ...s, state: { ...s.state, domain: prev.domain, page: prev.page + 1, kept } };
}

/**
 * @example plan({ query: 'https://www.kipriakon.com/menu', params: {} })[0].state.domain // 'kipriakon.com'
 */
export function plan(ctx: QueryContext<PlacesByDomainParams>): Step[] {
  const domain = registrableDomain(ctx.query);
  if (!domain) throw new SourceError('invalid_query', `query "${ctx.query}" is not a domain or website URL`);
  const p = ctx.params ?? {};
  const s = firstSearchStep(domain, searchSettings({ limit: perQueryOf(p), language: p.language, region: p.region }), null);
  return [{ ...s, state: { ...s.state, domain, page: 0, kept: 0 } }];
}

/** @example checkQuery('not a domain') // 'query "not a domain" is not a domain or website URL' */
export function checkQuery(query: string): string | undefined {
  return registrableDomain(query) ? undefined : `query "${query}" is not a domain or website URL`;
}
