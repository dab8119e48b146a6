/**
 * Checks a JSON body against its declaration; the first problem becomes a 422 naming the field.
 *
 * @example checkBody(taskBody, { tags: 'x' }) // throws 422 "tags expected array, got "x""
 */
import { Value } from '@sinclair/typebox/value';
import type { TSchema } from '@sinclair/typebox';
import { AppError } from './errors.ts';

/** A lone UTF-16 surrogate: JSON can spell one (`"\udfff"`), PostgreSQL's json and text refuse it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a string cannot be stored as text on every store, or undefined. */
function unstorable(s: string): string | undefined {
  if (s.includes('\0')) return 'contains a NUL character (\\u0000)';
  if (LONE_SURROGATE.test(s)) return 'contains a lone UTF-16 surrogate (not valid Unicode text)';
  return undefined;
}

/**
 * The first string (or key) of a JSON value no store can keep as text (a NUL, a lone surrogate), as
 * `path: why`, or undefined. PostgreSQL refuses both (a 500 before issue 28), SQLite kept them: every
 * route answers the same 422 on both stores.
 *
 * @example unstorableAt({ tags: ['\udfff'] }) // 'tags[0]: contains a lone UTF-16 surrogate (not valid Unicode text)'
 */
export function unstorableAt(v: unknown, path = '', depth = 0): string | undefined {
  if (typeof v === 'string') {
    const why = unstorable(v);
    return why ? `${path || 'body'}: ${why}` : undefined;
  }
  if (depth > 64 || v === null || typeof v !== 'object') return undefined;
  for (const [k, x] of Object.entries(v)) {
    const p = Array.isArray(v) ? `${path}[${k}]` : path ? `${path}.${k}` : k;
    const why = unstorable(k);
    // The path is echoed in the answer: a surrogate in a key is shown as U+FFFD.
    if (why) return `${p.replace(new RegExp(LONE_SURROGATE.source, 'g'), '\ufffd')}: ${why}`;
    const hit = unstorableAt(x, p, depth + 1);
    if (hit) return hit;
  }
  return undefined;
}

export function checkBody(schema: TSchema, body: unknown): void {
  const bad = unstorableAt(body);
  if (bad) throw new AppError(422, bad);
  // Value.Check first: it is several times cheaper than walking Errors, and almost every body passes.
  if (Value.Check(schema, body)) return;
  const first = Value.Errors(schema, body).First();
  if (first) {
    const where = first.path ? first.path.slice(1).replace(/\//g, '.') : '';
    // A union of literals (an enum in a body) names its values rather than "expected union value".
    const consts = (first.schema as { anyOf?: { const?: unknown }[] }).anyOf?.map((s) => s.const);
    const what = consts?.length && consts.every((c) => typeof c === 'string') ? `expected one of ${consts.map((c) => JSON.stringify(c)).join(', ')}` : first.message.toLowerCase();
    throw new AppError(422, `${where || 'body'}: ${what}, got ${String(JSON.stringify(first.value)).slice(0, 100)}`);
  }
}
