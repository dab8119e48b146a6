/**
 * Why a query failed, as it is stored, logged and shown (`errors`, `X-Request-Error`): the source
 * error type and a short message free of secrets (credentials in URLs, key-like query parameters).
 *
 * @example reasonOf(new SourceError('network', 'ENOTFOUND maps.example')) // { type: 'network', message: 'ENOTFOUND maps.example' }
 */
import { isSourceError } from '../sources/_kit/errors.ts';

const MAX_MESSAGE = 300;

/** The message with credentials and key-like parameters masked, on one line, at most 300 characters. */
export function cleanMessage(text: string): string {
  const one = text
    .replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi, '$1[redacted]@')
    .replace(/([?&;](?:api[_-]?key|key|token|access_token|password|passwd|secret|sig|signature|auth)=)[^&\s#]*/gi, '$1[redacted]')
    .replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g, '$1 [redacted]')
    .replace(/\btrw_[A-Za-z0-9_-]+/g, '[redacted]')
    .replace(/\s+/g, ' ')
    .trim();
  return one.length > MAX_MESSAGE ? `${one.slice(0, MAX_MESSAGE - 3)}...` : one;
}

export function reasonOf(e: unknown): { type: string; message: string } {
  if (isSourceError(e)) return { type: e.type, message: cleanMessage(e.message) };
  return { type: 'internal', message: cleanMessage((e as Error)?.message ?? String(e)) };
}

/** A reason for an HTTP header: printable ASCII only, at most 200 characters. */
export function headerSafe(text: string): string {
  const ascii = text.replace(/[^\x20-\x7e]/g, '?');
  return ascii.length > 200 ? `${ascii.slice(0, 197)}...` : ascii;
}
