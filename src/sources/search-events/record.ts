/**
 * Records of `/engine-search-events` (unit `event`): types of the declared record schema.
 */
import type { ParamsOf } from '../../contract/endpoint.ts';
import type { searchEvents } from '../../contract/endpoints/maps.ts';

export type EventsParams = ParamsOf<typeof searchEvents>;
export type { EventRecord, TicketLink } from '../../contract/records/engine-search-events.ts';
