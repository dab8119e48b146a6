/**
 * Metric hooks of the executor. The executor emits plain event objects to an `onEvent` callback;
 * the metrics layer counts them. Layout changes are found by parsers, far from any executor, so
 * they travel through a process-wide listener set and are always logged at error level: a site
 * that changed its page shape must be loud, not a slow decline in record counts.
 */
import pino from 'pino';
import type { SourceErrorType } from '../sources/_kit/errors.ts';

export interface RequestEvent {
  type: 'request';
  /** Step kind ('search', 'place', ...). */
  kind: string;
  method: string;
  host: string;
  status: number;
  ms: number;
  /** Decoded body bytes. */
  bytes: number;
  attempt: number;
  hop: number;
  /** Proxy label with credentials removed. */
  proxy?: string;
  replayed: boolean;
  browser: boolean;
}

export interface ErrorEvent {
  type: 'error';
  kind: string;
  host: string;
  errorType: SourceErrorType;
  message: string;
  /** Name of the detection rule that matched, when one did. */
  rule?: string;
  attempt: number;
  /** True when the executor retries after this error; `delayMs` is the wait before it. */
  willRetry: boolean;
  delayMs?: number;
}

export interface LayoutChangeEvent {
  type: 'layout_changed';
  source: string;
  detail: string;
}

/** One attempt's verdict as pacing, proxy health and tiers saw it (metrics per host and tier). */
export interface ProxyEvent {
  type: 'proxy';
  /** host:port */
  host: string;
  /** Tier name (PROXY_TIERS), undefined when direct. */
  tier?: string;
  proxy?: string;
  /** 'ok', a SourceError type, or 'soft_block'. */
  outcome: string;
}

export type FetchEvent = RequestEvent | ErrorEvent | LayoutChangeEvent | ProxyEvent;
export type FetchEventListener = (e: FetchEvent) => void;

/** Minimal logger shape (pino-compatible). */
export interface FetchLogger {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

let logger: FetchLogger | undefined;
const layoutListeners = new Set<FetchEventListener>();

/**
 * Replaces the logger used by the fetch layer (the app passes its own pino instance).
 *
 * @example
 *   setFetchLogger(app.log);
 */
export function setFetchLogger(l: FetchLogger): void {
  logger = l;
}

/** The current logger; a pino logger to stderr until the app sets one. */
export function fetchLogger(): FetchLogger {
  logger ??= pino({ name: 'trawl.fetch' }, pino.destination(2));
  return logger;
}

/**
 * Subscribes to layout-change reports from anywhere in the process; returns the unsubscribe.
 *
 * @example
 *   const off = onLayoutChange((e) => metrics.layoutChanges.inc({ source: e.source }));
 */
export function onLayoutChange(listener: FetchEventListener): () => void {
  layoutListeners.add(listener);
  return () => layoutListeners.delete(listener);
}

/**
 * A parser found none of the data it expects: log at error level and notify every listener.
 * Call it where the parser throws `SourceError('layout_changed')`.
 *
 * @example
 *   reportLayoutChange('maps-search', 'no result array at [0][1] (body 191 KB)');
 */
export function reportLayoutChange(source: string, detail: string | Record<string, unknown>): void {
  const text = typeof detail === 'string' ? detail : JSON.stringify(detail);
  fetchLogger().error({ source, detail: text, event: 'layout_changed' }, `LAYOUT CHANGED: ${source}: ${text}`);
  const e: LayoutChangeEvent = { type: 'layout_changed', source, detail: text };
  for (const l of layoutListeners) {
    try {
      l(e);
    } catch {
      // A broken metrics listener must not turn a parse error into a crash.
    }
  }
}
