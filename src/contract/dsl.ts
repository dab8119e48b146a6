/**
 * The small vocabulary the interface is declared in: TypeBox schemas (plain JSON Schema at run time)
 * with a few annotations the lenient parameter reader understands. Routes, validation and the
 * OpenAPI document are all derived from declarations written with these.
 *
 * @example
 *   const limit = int({ min: 1, max: 500, def: 500, doc: 'Places per query.' });
 *   const sort = oneOf(['newest', 'oldest'], { def: 'newest' });
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';

export interface Doc { doc?: string }

export const str = (o: Doc & { def?: string; maxLength?: number; pattern?: string; example?: string } = {}) =>
  Type.String({ description: o.doc, default: o.def, maxLength: o.maxLength ?? 4096, pattern: o.pattern, examples: o.example ? [o.example] : undefined });

/** `zeroIsAbsent`: 0 means "not given" (decision 2: `cutoff=0`, as some clients send by default). */
export const int = (o: Doc & { min?: number; max?: number; def?: number; zeroIsAbsent?: boolean } = {}) =>
  Type.Integer({ description: o.doc, minimum: o.min, maximum: o.max, default: o.def, 'x-zero-is-absent': o.zeroIsAbsent || undefined });

export const bool = (o: Doc & { def?: boolean } = {}) => Type.Boolean({ description: o.doc, default: o.def });

/** A string enum; `caseInsensitive` values are matched ignoring case and returned as declared. */
export const oneOf = <T extends readonly string[]>(values: T, o: Doc & { def?: T[number]; caseInsensitive?: boolean } = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], description: o.doc, default: o.def, 'x-case-insensitive': o.caseInsensitive || undefined });

/** An array parameter: repeated keys or `key[]`; enum arrays also take one comma-joined value. */
export const list = <T extends TSchema>(item: T, o: Doc & { def?: unknown[]; min?: number; max?: number } = {}) =>
  Type.Array(item, { description: o.doc, default: o.def, minItems: o.min, maxItems: o.max });

export const nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

export { Type };
export type { Static, TSchema };

/** A string enum inside a JSON body: checkable by TypeBox's validator (unlike `oneOf`). */
export const literals = <T extends readonly string[]>(values: T, description?: string) =>
  Type.Union(values.map((v) => Type.Literal(v)), { description });
