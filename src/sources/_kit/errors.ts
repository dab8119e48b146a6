/**
 * Typed source errors. They steer the engine (retry or not, back off or not) and the metrics;
 * thrown by the executor (transport-level) and by parsers (`layout_changed`, `not_found`).
 */
export type SourceErrorType =
  | 'blocked' // the site refuses us (403, bot wall)
  | 'captcha'
  | 'consent' // a cookie-consent wall instead of content
  | 'rate_limited' // 429 or the site's own throttle page
  | 'not_found' // the thing the query names does not exist
  | 'layout_changed' // the page came back but none of the expected data is in it
  | 'network' // connection, DNS, TLS, timeout, too large
  | 'invalid_query' // the query cannot be understood by this source
  | 'stale_request' // the site no longer accepts the request's form (a persisted-query hash or API schema it dropped)
  | 'login_required' // the content is only shown to a signed-in (or age-verified) visitor
  | 'forbidden_target' // the SSRF guard refused a user-given URL
  | 'misconfigured'; // this server's own setup keeps the source from being asked (no browser where CHROMIUM_PATH says)

const RETRYABLE: Record<SourceErrorType, boolean> = {
  blocked: true,
  captcha: true,
  consent: true,
  rate_limited: true,
  network: true,
  stale_request: true,
  // Another proxy or session is as anonymous as this one: signing in is what would help.
  login_required: false,
  not_found: false,
  layout_changed: false,
  invalid_query: false,
  forbidden_target: false,
  // Asking again on this server gives the same answer until its operator fixes the setting.
  misconfigured: false,
};

export class SourceError extends Error {
  readonly type: SourceErrorType;
  readonly retryable: boolean;
  /** Suggested delay before a retry, e.g. from Retry-After. */
  readonly retryAfterMs?: number;
  /** For logs only: what the user must not be told (e.g. the address a refused name resolved to). */
  readonly detail?: string;
  constructor(type: SourceErrorType, message: string, opts: { retryAfterMs?: number; cause?: unknown; detail?: string } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'SourceError';
    this.type = type;
    this.retryable = RETRYABLE[type];
    this.retryAfterMs = opts.retryAfterMs;
    this.detail = opts.detail;
  }
}

export function isSourceError(e: unknown): e is SourceError {
  return e instanceof SourceError;
}

/** An error that crossed from a worker thread (its own fields copied): a SourceError again when it
 *  was one, so retries and reasons work as for one thrown on this thread; anything else as it is. */
export function sourceErrorFrom(e: unknown): unknown {
  const x = e as Error & { type?: SourceErrorType; retryAfterMs?: number; detail?: string };
  if (x?.name === 'SourceError' && x.type && !(x instanceof SourceError)) return new SourceError(x.type, x.message, { retryAfterMs: x.retryAfterMs, detail: x.detail });
  return e;
}
