/**
 * `/engine-search-events` adapter (unit `event`).
 *
 * @example
 *   const [step] = searchEvents.plan({ query: 'concerts in london', params: { pagesPerQuery: 2 } });
 *   const { records, next } = searchEvents.parse(step, response, ctx);
 */
import type { WebAdapter } from '../_kit/adapter.ts';
import { eventsOfHtml, parse } from './parse.ts';
import { plan } from './plan.ts';
import type { EventRecord, EventsParams } from './record.ts';

export const searchEvents: WebAdapter<EventsParams, EventRecord> = {
  kind: 'web',
  endpoint: '/engine-search-events',
  unit: 'event',
  checkQuery: (q) => (q.trim() ? undefined : 'query is empty: give a search phrase such as "concerts in london"'),
  plan,
  parse,
};

/**
 * Parses a saved events results page (for `trawl parse /engine-search-events <file>`).
 * Throws an Error when the file is not one.
 * @example parseCapture(readFileSync('events.html', 'utf8'), 'jazz')[0].title
 */
export function parseCapture(text: string, query = ''): EventRecord[] {
  if (!/<(html|body|div|li|script)\b/i.test(text)) throw new Error('search-events: expected an HTML results page of the events vertical');
  const events = eventsOfHtml(text, query);
  if (events === null) throw new Error('search-events: the page holds no event cards, no schema.org events and no "no events" notice');
  return events;
}

export type { EventRecord, EventsParams };
