/**
 * Declaration of one data endpoint: everything routes, validation, billing and the OpenAPI document
 * need. Adding an endpoint is adding one declaration (plus its adapter), no hand-written route.
 */
import type { Static, TSchema } from './dsl.ts';
import type { SharedName } from './shared.ts';

/** `P` and `R` keep each declaration's own schemas, so adapters take their types from it
 *  (`ParamsOf`, `RecordOf`) instead of restating them. */
export interface DataEndpoint<P extends Record<string, TSchema> = Record<string, TSchema>, R extends TSchema = TSchema> {
  path: string;
  /** Other paths that serve the same operation (decision 1). */
  aliases?: string[];
  family: 'maps' | 'reviews' | 'listings' | 'lookups';
  summary: string;
  /** What a query item is. */
  queryDoc: string;
  /** Endpoint-specific parameters (shared ones are added from `shared`). */
  params: P;
  /** Other names real clients send for a declared parameter (alias → declared name), read when
   *  the declared name is absent (docs/parameter-aliases.md). */
  paramAliases?: Record<string, string>;
  /** Endpoint-specific parameters that must be present. */
  required?: string[];
  /** Shared parameters the interface lists for it (all are accepted; these are documented). */
  shared: SharedName[];
  record: R;
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

/**
 * A declaration, its parameter and record schemas kept in its type.
 * @example export const forumComments = defineEndpoint({ path: '/forum-comments', params: { sort: oneOf(['best', 'new'] as const) }, ... });
 */
export function defineEndpoint<P extends Record<string, TSchema>, R extends TSchema>(e: DataEndpoint<P, R>): DataEndpoint<P, R> {
  return e;
}

/**
 * The parameters an adapter receives for a declaration: each declared one, typed by its schema.
 * All optional: the reader fills defaults, but adapters are also called directly (tests, `trawl
 * parse`) with only some given.
 * @example type P = ParamsOf<typeof forumComments> // { sort?: 'best' | 'new' }
 */
export type ParamsOf<E extends { params: Record<string, TSchema> }> = { [K in keyof E['params']]?: Static<E['params'][K]> };

/** The record type of a declaration. */
export type RecordOf<E extends { record: TSchema }> = Static<E['record']>;
