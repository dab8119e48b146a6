/**
 * Structured JSON logs (pino). Keys never reach a log: the `redact` paths cover headers and the
 * `apiKey` query parameter, and request URLs are logged with their query string masked.
 *
 * @example const log = createLogger('info'); log.info({ requestId }, 'request accepted');
 */
import pino from 'pino';

export type Logger = pino.Logger;

export function createLogger(level = 'info', destination?: pino.DestinationStream): Logger {
  return pino({
    level,
    base: { service: 'trawl' },
    redact: { paths: ['req.headers["x-api-key"]', 'headers["x-api-key"]', 'apiKey', 'api_key', '*.apiKey', '*.api_key', 'key'], censor: '[redacted]' },
  }, destination);
}

/** The URL with the value of `apiKey` (any case) masked, for logs. */
export function maskUrl(url: string): string {
  return url.replace(/([?&]apikey=)[^&]*/gi, '$1[redacted]');
}
