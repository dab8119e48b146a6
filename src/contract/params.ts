/**
 * Reads query-string parameters against their declarations, with the leniency of decision 2:
 * repeated keys and `key[]`, comma-joined enum arrays, `true/True/1` booleans, empty = absent,
 * case-insensitive regions, enum synonyms, unknown parameters ignored. Anything else wrong is a
 * `ParamError` whose message names the parameter, the value received and what is allowed (decision 3).
 *
 * @example
 *   const raw = parseQueryString('query=a&query[]=b&limit=10&async=False');
 *   readParams({ limit: int({ min: 1, max: 500 }) }, raw) // { limit: 10 }
 */
import type { TSchema } from '@sinclair/typebox';
import { ENUM_SYNONYMS } from './enums.ts';

export class ParamError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ParamError';
  }
}

/** Parameter name → values in order; `key[]` is folded into `key`. */
export type RawParams = Map<string, string[]>;

const show = (v: string) => JSON.stringify(v.length > 80 ? `${v.slice(0, 77)}...` : v);

function decode(part: string, what: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    throw new ParamError(`${what} is not valid percent-encoded UTF-8`);
  }
}

export function parseQueryString(qs: string): RawParams {
  const out: RawParams = new Map();
  if (!qs) return out;
  for (const pair of qs.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    let key = decode(eq < 0 ? pair : pair.slice(0, eq), 'a parameter name');
    const value = eq < 0 ? '' : decode(pair.slice(eq + 1), `parameter ${key.replace(/\[\]$/, '')}`);
    // No store keeps a NUL in text (PostgreSQL refuses it), and no query needs one.
    if (key.includes('\0')) throw new ParamError('a parameter name contains a NUL byte (%00)');
    if (value.includes('\0')) throw new ParamError(`parameter ${key.replace(/\[\]$/, '')} contains a NUL byte (%00)`);
    if (key.endsWith('[]')) key = key.slice(0, -2);
    const list = out.get(key);
    if (list) list.push(value);
    else out.set(key, [value]);
  }
  return out;
}

function allowedEnum(values: string[]): string {
  return values.length > 24 ? `${values.slice(0, 24).join(', ')}, ... (${values.length} values, see /openapi.json)` : values.join(', ');
}

function readEnum(name: string, schema: any, v: string): string {
  const values = schema.enum as string[];
  // Own keys only: `__proto__`, `constructor` or `toString` must not find Object.prototype's members.
  const s = Object.hasOwn(ENUM_SYNONYMS, v) ? ENUM_SYNONYMS[v] : v;
  if (values.includes(s)) return s;
  if (schema['x-case-insensitive']) {
    const hit = values.find((x) => x.toLowerCase() === s.toLowerCase());
    if (hit) return hit;
  }
  throw new ParamError(`${name} must be one of ${allowedEnum(values)}, got ${show(v)}`);
}

const TRUE = new Set(['true', '1']);
const FALSE = new Set(['false', '0']);

/** One scalar value; undefined means "treat as absent". */
function readScalar(name: string, schema: any, v: string): unknown {
  if (schema.enum) return readEnum(name, schema, v);
  switch (schema.type) {
    case 'boolean': {
      const l = v.toLowerCase();
      if (TRUE.has(l)) return true;
      if (FALSE.has(l)) return false;
      throw new ParamError(`${name} must be a boolean (true, false, 1 or 0), got ${show(v)}`);
    }
    case 'integer': {
      const range = `from ${schema.minimum ?? '-∞'}${schema.maximum !== undefined ? ` to ${schema.maximum}` : ' up'}`;
      if (!/^[+-]?\d{1,16}$/.test(v.trim())) throw new ParamError(`${name} must be an integer ${range}, got ${show(v)}`);
      const n = Number(v);
      if (n === 0 && schema['x-zero-is-absent']) return undefined;
      if ((schema.minimum !== undefined && n < schema.minimum) || (schema.maximum !== undefined && n > schema.maximum)) {
        throw new ParamError(`${name} must be an integer ${range}, got ${show(v)}`);
      }
      return n;
    }
    case 'number': {
      const n = Number(v);
      if (!v.trim() || !Number.isFinite(n)) throw new ParamError(`${name} must be a number, got ${show(v)}`);
      return n;
    }
    default: {
      if (schema.maxLength !== undefined && v.length > schema.maxLength) {
        throw new ParamError(`${name} must be at most ${schema.maxLength} characters, got ${v.length}`);
      }
      if (schema.pattern && !new RegExp(schema.pattern).test(v)) {
        const ex = schema.examples?.[0] ? ` such as ${show(schema.examples[0])}` : '';
        throw new ParamError(`${name} must match ${schema.pattern}${ex}, got ${show(v)}`);
      }
      return v;
    }
  }
}

/** Reads one declared parameter from its raw values; undefined when absent. */
function readParam(name: string, schema: TSchema, values: string[] | undefined): unknown {
  const s = schema as any;
  if (s.type === 'array') {
    const item = s.items;
    let vs = (values ?? []).filter((v) => v !== '');
    if (item.enum) vs = vs.flatMap((v) => v.split(',').map((x) => x.trim()).filter(Boolean));
    if (!vs.length) return undefined;
    if (s.maxItems !== undefined && vs.length > s.maxItems) throw new ParamError(`${name} takes at most ${s.maxItems} values, got ${vs.length}`);
    return vs.map((v) => readScalar(name, item, v));
  }
  const v = values?.find((x) => x !== '');
  if (v === undefined) return undefined;
  return readScalar(name, s, v);
}

/** Reads every declared parameter; defaults fill the absent ones; `required` must be present. */
export function readParams(decls: Record<string, TSchema>, raw: RawParams, required: string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(decls)) {
    let v = readParam(name, schema, raw.get(name));
    if (v === undefined && (schema as any).default !== undefined) {
      const d = (schema as any).default;
      v = typeof d === 'object' && d !== null ? structuredClone(d) : d;
    }
    if (v === undefined) {
      if (required.includes(name)) throw new ParamError(`${name} is required`);
      continue;
    }
    out[name] = v;
  }
  return out;
}

/**
 * The raw parameters with each alias folded into its declared name when the declared name is
 * absent (or only empty): a client that says `organizationsPerQueryLimit=5` gets `limit=5`, never
 * the default. The declared name wins when both are given.
 *
 * @example withAliases(parseQueryString('organizationsPerQueryLimit=5'), { organizationsPerQueryLimit: 'limit' }).get('limit') // ['5']
 */
export function withAliases(raw: RawParams, aliases: Record<string, string> | undefined): RawParams {
  if (!aliases) return raw;
  let out = raw;
  for (const [alias, name] of Object.entries(aliases)) {
    const given = raw.get(alias);
    if (!given?.some((v) => v !== '') || raw.get(name)?.some((v) => v !== '')) continue;
    if (out === raw) out = new Map(raw);
    out.set(name, given);
  }
  return out;
}
