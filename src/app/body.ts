/**
 * Checks a JSON body against its declaration; the first problem becomes a 422 naming the field.
 *
 * @example checkBody(taskBody, { tags: 'x' }) // throws 422 "tags expected array, got "x""
 */
import { Value } from '@sinclair/typebox/value';
import type { TSchema } from '@sinclair/typebox';
import { AppError } from './errors.ts';

/** Path of the first string (or key) holding a NUL, or undefined. */
function nulAt(v: unknown, path: string, depth = 0): string | undefined {
  if (typeof v === 'string') return v.includes('\0') ? path || 'body' : undefined;
  if (depth > 64 || v === null || typeof v !== 'object') return undefined;
  for (const [k, x] of Object.entries(v)) {
    const p = Array.isArray(v) ? `${path}[${k}]` : path ? `${path}.${k}` : k;
    if (k.includes('\0')) return p;
    const hit = nulAt(x, p, depth + 1);
    if (hit) return hit;
  }
  return undefined;
}

export function checkBody(schema: TSchema, body: unknown): void {
  // No store keeps a NUL in text (PostgreSQL refuses it): the same 422 on every store.
  const nul = nulAt(body, '');
  if (nul) throw new AppError(422, `${nul}: contains a NUL character (\\u0000)`);
  const first = Value.Errors(schema, body).First();
  if (first) {
    const where = first.path ? first.path.slice(1).replace(/\//g, '.') : '';
    // A union of literals (an enum in a body) names its values rather than "expected union value".
    const consts = (first.schema as { anyOf?: { const?: unknown }[] }).anyOf?.map((s) => s.const);
    const what = consts?.length && consts.every((c) => typeof c === 'string') ? `expected one of ${consts.map((c) => JSON.stringify(c)).join(', ')}` : first.message.toLowerCase();
    throw new AppError(422, `${where || 'body'}: ${what}, got ${String(JSON.stringify(first.value)).slice(0, 100)}`);
  }
}
