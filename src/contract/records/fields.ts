/**
 * Field builders for the record schemas of `src/contract/records/*`: every field carries its doc
 * (the OpenAPI document and `/docs` show it), and a value the page lacks is null (decision 22).
 *
 * @example
 *   const rec = record('HotelsSearchRecord', 'A hotel.', { name: nstr('Hotel name.') });
 */
import { Type, type TSchema } from '../dsl.ts';

export const str = (description: string) => Type.String({ description });
export const nstr = (description: string) => Type.Union([Type.String(), Type.Null()], { description });
export const nnum = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });
export const nint = (description: string) => Type.Union([Type.Integer(), Type.Null()], { description });
export const nbool = (description: string) => Type.Union([Type.Boolean(), Type.Null()], { description });
export const ncounts = (description: string) => Type.Union([Type.Record(Type.String(), Type.Integer()), Type.Null()], { description });
export const strs = (description: string) => Type.Array(Type.String(), { description });

/** An open record (extra fields allowed, decision 10) with an `$id` that names its OpenAPI component. */
export const record = <P extends Record<string, TSchema>>($id: string, description: string, props: P) =>
  Type.Object(props, { $id, description, additionalProperties: true });
