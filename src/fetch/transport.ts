/**
 * Transport: one HTTP exchange, no redirects, no retries, no policy. The executor layers policy on
 * top; record/replay swap or wrap the transport, so everything above runs the same offline.
 */
import { request, type Dispatcher } from 'undici';
import { SourceError, isSourceError } from '../sources/_kit/errors.ts';
import { decodeText, decompress, readLimited, tooLarge } from './decode.ts';

export interface TransportRequest {
  url: string;
  method: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
  dispatcher?: Dispatcher;
  maxBytes: number;
}

export interface TransportResponse {
  status: number;
  url: string;
  /** Lower-case names; repeated headers joined with ', ' (set-cookie kept apart below). */
  headers: Record<string, string>;
  setCookie: string[];
  /** Decoded text ('' for bodies of redirects read and dropped). */
  body: string;
  /** Decoded body size in bytes. */
  bytes: number;
  replayed: boolean;
}

export interface Transport {
  send(req: TransportRequest): Promise<TransportResponse>;
  close(): Promise<void>;
}

/**
 * Turns anything undici throws into a typed network error; typed errors (the SSRF guard refusing
 * a connection, our own timeout reason) pass through unchanged.
 *
 * @example
 *   catch (e) { throw toNetworkError(e, url, signal) }
 */
export function toNetworkError(e: unknown, url: string, signal?: AbortSignal): SourceError {
  if (signal?.aborted && isSourceError(signal.reason)) return signal.reason;
  if (isSourceError(e)) return e;
  const cause = (e as { cause?: unknown })?.cause;
  if (isSourceError(cause)) return cause;
  const err = e as NodeJS.ErrnoException;
  const code = err?.code ?? (cause as NodeJS.ErrnoException | undefined)?.code;
  let host = url;
  try {
    host = new URL(url).host;
  } catch {
    // keep the raw text
  }
  const what = code ? `${code}` : err?.name ?? 'error';
  return new SourceError('network', `${what} fetching ${host}: ${err?.message ?? String(e)}`, { cause: e });
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): { headers: Record<string, string>; setCookie: string[] } {
  const headers: Record<string, string> = {};
  let setCookie: string[] = [];
  for (const [k, v] of Object.entries(raw)) {
    if (v === undefined) continue;
    if (k === 'set-cookie') setCookie = Array.isArray(v) ? v : [v];
    else headers[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  return { headers, setCookie };
}

/** The real network transport: undici.request, body read with the size limit, decoded. */
export class HttpTransport implements Transport {
  /**
   * @example
   *   const res = await new HttpTransport().send({ url, method: 'GET', headers: {}, signal, maxBytes: 20e6 });
   */
  async send(req: TransportRequest): Promise<TransportResponse> {
    let res: Dispatcher.ResponseData;
    try {
      res = await request(req.url, {
        method: req.method as Dispatcher.HttpMethod,
        headers: req.headers,
        body: req.body,
        dispatcher: req.dispatcher,
        signal: req.signal,
        maxRedirections: 0,
      });
    } catch (e) {
      throw toNetworkError(e, req.url, req.signal);
    }
    const { headers, setCookie } = flattenHeaders(res.headers);
    const declared = Number(headers['content-length']);
    if (declared > req.maxBytes) {
      const err = tooLarge(req.maxBytes, req.url);
      // Without a listener, destroying the body would surface as an uncaught 'error'.
      res.body.on('error', () => undefined).destroy(err);
      throw err;
    }
    let text: string;
    let bytes: number;
    try {
      const wire = await readLimited(res.body, req.maxBytes, req.url);
      const plain = await decompress(wire, headers['content-encoding'], req.maxBytes, req.url);
      bytes = plain.length;
      text = decodeText(plain, headers['content-type']);
    } catch (e) {
      throw toNetworkError(e, req.url, req.signal);
    }
    return { status: res.statusCode, url: req.url, headers, setCookie, body: text, bytes, replayed: false };
  }

  async close(): Promise<void> {}
}
