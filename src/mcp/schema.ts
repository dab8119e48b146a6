/**
 * A tool's input schema from the contract's TypeBox declarations: the JSON Schema `tools/list`
 * advertises (the declaration as plain JSON, the reader's own `x-` annotations left out) and the
 * check a call's arguments pass first, whose first problem names the argument.
 *
 * @example toolInput({ requestId: Type.String() }, ['requestId'])['~standard'].validate({}) // { issues: [{ message: 'requestId: Expected required property' }] }
 */
import { Value } from '@sinclair/typebox/value';
import { TypeRegistry } from '@sinclair/typebox';
import { Type, type TSchema } from '../contract/dsl.ts';

// The contract's string enums (`oneOf`) are TypeBox `Unsafe` schemas, which TypeBox cannot check
// unaided: a value is one of the enum (ignoring case where the declaration says so).
if (!TypeRegistry.Has('Unsafe')) {
  TypeRegistry.Set('Unsafe', (s: Record<string, unknown>, v: unknown) => {
    const values = s.enum as unknown[] | undefined;
    if (!values) return true;
    if (values.includes(v)) return true;
    return !!s['x-case-insensitive'] && typeof v === 'string' && values.some((x) => typeof x === 'string' && x.toLowerCase() === v.toLowerCase());
  });
}

/** The plain JSON of a declaration, without the parameter reader's own keywords. */
export function plainSchema(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(plainSchema);
  if (!s || typeof s !== 'object') return s;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) {
    if (k.startsWith('x-') || k === '$id' || v === undefined) continue;
    out[k] = plainSchema(v);
  }
  // A TypeBox tuple is draft-07's array `items`; the 2020-12 schema MCP advertises says `prefixItems`.
  if (Array.isArray(out.items)) {
    out.prefixItems = out.items;
    out.items = out.additionalItems ?? false;
    delete out.additionalItems;
  }
  return out;
}

export interface ToolInput {
  '~standard': {
    version: 1; vendor: string;
    validate(v: unknown): { value: Record<string, unknown> } | { issues: { message: string }[] };
    jsonSchema: { input(o?: unknown): Record<string, unknown>; output(o?: unknown): Record<string, unknown> };
  };
  json: Record<string, unknown>;
}

/** The input of a tool taking `props`, `required` of them required, nothing else. */
export function toolInput(props: Record<string, TSchema>, required: string[]): ToolInput {
  const optional = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, required.includes(k) ? v : Type.Optional(v)]));
  const schema = Type.Object(optional, { additionalProperties: false });
  const json = { $schema: 'https://json-schema.org/draft/2020-12/schema', ...plainSchema(JSON.parse(JSON.stringify(schema))) as Record<string, unknown> };
  return {
    json,
    '~standard': {
      version: 1, vendor: 'trawl',
      validate(v) {
        const value = (v ?? {}) as Record<string, unknown>;
        const first = Value.Errors(schema, value).First();
        if (!first) return { value };
        const name = first.path.replace(/^\//, '').replace(/\//g, '.') || 'arguments';
        const unknown = first.schema === schema && typeof value === 'object' ? Object.keys(value).filter((k) => !(k in props)) : [];
        const message = unknown.length ? `unknown argument ${JSON.stringify(unknown[0])}; known: ${Object.keys(props).join(', ')}` : `${name}: ${first.message}`;
        return { issues: [{ message }] };
      },
      jsonSchema: { input: () => json, output: () => json },
    },
  };
}
