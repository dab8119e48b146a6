/**
 * One account operation of the interface (4.6-4.9): method, path, parameters, body and answers. Its own
 * file because account.ts lists every operation and profile.ts, monitors.ts declare theirs: each
 * imports this, not the list (no import cycle).
 */
import type { TSchema } from './dsl.ts';

export interface AccountOperation {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  summary: string;
  params?: Record<string, TSchema>;
  required?: string[];
  body?: TSchema;
  /** Largest body in bytes, when below the server's 1 MiB: past it 413 before the body is read. */
  bodyLimit?: number;
  /** Status → schema (undefined schema: no body / plain text). */
  answers: Record<number, TSchema | 'text' | 'none' | 'file'>;
  /** Needs no API key (the file URL is the secret). */
  public?: boolean;
}
