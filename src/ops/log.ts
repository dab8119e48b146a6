/**
 * Structured JSON logs (pino). Keys never reach a log: the `redact` paths cover headers and the
 * `apiKey` query parameter, request URLs are logged with every key parameter masked by its parsed
 * name, and error lines are scrubbed of the keys the request presented.
 *
 * @example const log = createLogger('info'); log.info({ requestId }, 'request accepted');
 */
import pino from 'pino';
import { isMainThread } from 'node:worker_threads';
import { maskKeys } from './key-mask.ts';

export { maskKeys };

export type Logger = pino.Logger;

/**
 * Lines go to stdout in batches (issue 37): a synchronous write of each line was a write system call
 * on the API thread per line, two a query (6 % of its time in the service bench). Lines gather until
 * 4 KB or 100 ms, then go out in one asynchronous write; pino writes what is left before the process
 * exits (a crash included), a SIGKILL may lose the last 100 ms. Off the main thread pino cannot hook
 * the exit: writes stay synchronous there. One stream for every logger of the process.
 */
let stdout: pino.DestinationStream | null = null;
const defaultDestination = () => (stdout ??= isMainThread ? pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 100 }) : pino.destination({ dest: 1, sync: true }));

export function createLogger(level = 'info', destination: pino.DestinationStream = defaultDestination()): Logger {
  return pino({
    level,
    base: { service: 'trawl' },
    // Every serialized line passes the key mask, whatever field or message holds the key.
    hooks: { streamWrite: maskKeys },
    redact: { paths: ['req.headers["x-api-key"]', 'headers["x-api-key"]', 'apiKey', 'api_key', '*.apiKey', '*.api_key', 'key'], censor: '[redacted]' },
  }, destination);
}

/** Percent-escapes decoded one by one, invalid ones kept: a name is read even where the reader would refuse it. */
function lenientDecode(s: string): string {
  return s.replace(/\+/g, ' ').replace(/%([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/** Parameter names that carry a key, after decoding, `[]` folding and lower-casing: every spelling
 *  the parameter reader maps to `apiKey` and the near-misses a client may send. */
const KEY_NAME = /^(x[-_ ]?)?api[-_ ]?key$/;

/** True when a raw (still encoded) query-string name names a key parameter. */
export function isKeyParamName(raw: string): boolean {
  return KEY_NAME.test(lenientDecode(raw).replace(/(\[\])+$/, '').toLowerCase());
}

/**
 * The URL with the value of every key parameter masked, by its parsed name (`apiKey`, `apiKey[]`,
 * `%61piKey`, `api%4Bey`, `APIKEY`, ...), for logs.
 *
 * @example maskUrl('/a?%61piKey=trw_x&q=1') // '/a?%61piKey=[redacted]&q=1'
 */
export function maskUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const pairs = url.slice(q + 1).split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const name = eq < 0 ? pair : pair.slice(0, eq);
    return eq >= 0 && isKeyParamName(name) ? `${name}=[redacted]` : pair;
  });
  return `${url.slice(0, q + 1)}${pairs.join('&')}`;
}

/**
 * `text` with every occurrence of the given secrets (the keys a request presented) replaced: the
 * second net for error messages and stacks that quote a URL or a value in a shape maskUrl does not
 * know.
 *
 * @example scrub('bad /x/trw_abc', ['trw_abc']) // 'bad /x/[redacted]'
 */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) {
    if (s.length < 8) continue; // too short to be a key; replacing it would mangle the line
    // The key, its encoded spelling, and its secret without the prefix (a client that dropped it).
    const bare = s.startsWith('trw_') ? s.slice(4) : null;
    for (const x of [s, encodeURIComponent(s), ...(bare && bare.length >= 8 ? [bare] : [])]) out = out.split(x).join('[redacted]');
  }
  return out;
}
