/**
 * Declaration of one data endpoint: everything routes, validation, billing and the OpenAPI document
 * need. Adding an endpoint is adding one declaration (plus its adapter), no hand-written route.
 */
import type { TSchema } from './dsl.ts';
import type { SharedName } from './shared.ts';

export interface DataEndpoint {
  path: string;
  /** Other paths that serve the same operation (decision 1). */
  aliases?: string[];
  family: 'maps' | 'reviews' | 'listings' | 'lookups';
  summary: string;
  /** What a query item is. */
  queryDoc: string;
  /** Endpoint-specific parameters (shared ones are added from `shared`). */
  params: Record<string, TSchema>;
  /** Other names real clients send for a declared parameter (alias → declared name), read when
   *  the declared name is absent (docs/parameter-aliases.md). */
  paramAliases?: Record<string, string>;
  /** Endpoint-specific parameters that must be present. */
  required?: string[];
  /** Shared parameters the interface lists for it (all are accepted; these are documented). */
  shared: SharedName[];
  record: TSchema;
  /** Billing unit (decision 20) and product (the service id tasks show). */
  unit: string;
  service: string;
  /** A query that finds nothing still costs one unit (decision 20). */
  emptyCostsOne?: boolean;
  /** The interface marks it as answering 204 on failure. */
  answers204?: boolean;
  /** Cross-parameter rules beyond single values; return a 422 message or undefined. */
  check?(p: Record<string, unknown>): string | undefined;
}
