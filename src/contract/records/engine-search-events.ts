/**
 * `/engine-search-events` records (decision 24): one event of the search engine's events results.
 */
import type { Static } from '@sinclair/typebox';
import { Type } from '../dsl.ts';
import { nint, nstr, record, str, strs } from './fields.ts';

export const ticketLink = Type.Object({ source: nstr('Seller name, or its host when the page shows none.'), link: str('Ticket page URL.') }, { additionalProperties: true });

export const eventRecord = record('EngineSearchEventRecord', 'An event from the search engine\'s events results.', {
  query: str('The query item as given.'),
  title: str('Event title.'),
  date_start: nstr('Short start as printed, e.g. "Jun 19".'),
  date_when: nstr('The whole date line as printed, e.g. "Sun, Jun 19, 7:30 – 11 PM".'),
  start_timestamp: nint('Start, Unix seconds (known only from structured data with a date).'),
  end_timestamp: nint('End, Unix seconds (structured data only).'),
  address: strs('Address lines, venue first.'),
  venue_name: nstr('Venue name.'),
  venue_cid: nstr('Map CID of the venue, from its map link.'),
  description: nstr('Short description.'),
  link: nstr('Event page URL.'),
  ticket_links: Type.Array(ticketLink, { description: 'Ticket sellers, in page order.' }),
  thumbnail: nstr('Image URL.'),
});

export type EventRecord = Static<typeof eventRecord>;
export type TicketLink = Static<typeof ticketLink>;
