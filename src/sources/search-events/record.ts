/**
 * Records of `/engine-search-events` (unit `event`): types of the declared record schema.
 */
import type { VerticalParams } from '../_search/serp.ts';

export type EventsParams = VerticalParams;
export type { EventRecord, TicketLink } from '../../contract/records/engine-search-events.ts';
