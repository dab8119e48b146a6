/**
 * Checks a JSON body against its declaration; the first problem becomes a 422 naming the field.
 *
 * @example checkBody(taskBody, { tags: 'x' }) // throws 422 "tags expected array, got "x""
 */
import { Value } from '@sinclair/typebox/value';
import type { TSchema } from '@sinclair/typebox';
import { AppError } from './errors.ts';

export function checkBody(schema: TSchema, body: unknown): void {
  const first = Value.Errors(schema, body).First();
  if (first) {
    const where = first.path ? first.path.slice(1).replace(/\//g, '.') : '';
    throw new AppError(422, `${where || 'body'}: ${first.message.toLowerCase()}, got ${String(JSON.stringify(first.value)).slice(0, 100)}`);
  }
}
