/**
 * Records of `/engine-search-events` (unit `event`, decision 24: what the source offers, snake_case,
 * Unix-second `*_timestamp`).
 */
import type { VerticalParams } from '../_search/serp.ts';

export type EventsParams = VerticalParams;

export interface TicketLink {
  source: string | null;
  link: string;
}

export interface EventRecord {
  query: string;
  title: string;
  /** Short start as printed ("Jun 19"). */
  date_start: string | null;
  /** The whole date line as printed ("Sun, Jun 19, 7:30 – 11 PM"). */
  date_when: string | null;
  /** Known only from structured data (schema.org startDate with a date). */
  start_timestamp: number | null;
  end_timestamp: number | null;
  address: string[];
  venue_name: string | null;
  venue_cid: string | null;
  description: string | null;
  link: string | null;
  ticket_links: TicketLink[];
  thumbnail: string | null;
}
