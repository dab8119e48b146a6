/** Every data endpoint of the interface, in the order of its section 4. */
import type { DataEndpoint } from '../endpoint.ts';
import { mapsEndpoints } from './maps.ts';
import { reviewEndpoints } from './reviews.ts';
import { listingEndpoints } from './listings.ts';
import { lookupEndpoints } from './lookups.ts';

export const dataEndpoints: DataEndpoint[] = [...mapsEndpoints, ...reviewEndpoints, ...listingEndpoints, ...lookupEndpoints];

const byPath = new Map<string, DataEndpoint>();
for (const e of dataEndpoints) for (const p of [e.path, ...(e.aliases ?? [])]) byPath.set(p, e);

/** The declaration serving a path (aliases included). */
export function endpointFor(path: string): DataEndpoint | undefined {
  return byPath.get(path);
}

export function endpointByService(service: string): DataEndpoint | undefined {
  return dataEndpoints.find((e) => e.service === service);
}
