/**
 * `/engine-search-events` steps: result pages of the events vertical, one after another while
 * pages keep holding events, up to `pagesPerQuery`. The vertical is rendered by script in the
 * browser (a plain fetch gets an empty shell), so steps ask for a browser.
 */
import type { QueryContext, Step } from '../_kit/adapter.ts';
import { SourceError } from '../_kit/errors.ts';
import { verticalUrl } from '../_search/serp.ts';
import type { EventsParams } from './record.ts';

/** @example eventsPageStep('jazz', 0, {}).url // 'https://www.google.com/search?q=jazz&ibp=htl%3Bevents&hl=en' */
export function eventsPageStep(query: string, page: number, p: EventsParams): Step {
  return { kind: 'events-page', url: verticalUrl(query, 'events', page, p), expect: 'html', browser: true, state: { page } };
}

/** @example plan({ query: 'concerts in london', params: {} }).length // 1 */
export function plan(ctx: QueryContext<EventsParams>): Step[] {
  const q = ctx.query.trim();
  if (!q) throw new SourceError('invalid_query', 'query is empty');
  return [eventsPageStep(q, 0, ctx.params)];
}
