/**
 * `trawl parse /engine-search-events <file>`: a saved response of this source → records.
 */
import { eventsOfHtml } from './parse.ts';
import type { EventRecord } from './record.ts';

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
