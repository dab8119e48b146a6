/**
 * Record and replay in HAR 1.2. Recording wraps the transport and writes every exchange (request
 * and response, body as decoded text) to a HAR file; replay replaces the transport and serves
 * responses from HAR files, so the whole service runs offline and deterministically. A replayed
 * body comes as the network's does (issue 37): fresh bytes each time, decoded only where read
 * (./lazy-body.ts), so a replay takes the fetched path's work, not a string decoded once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { SourceError } from '../sources/_kit/errors.ts';
import { decodeText } from './decode.ts';
import { markFinal } from './retry.ts';
import { withBody } from './lazy-body.ts';
import { addHeader, type Transport, type TransportRequest, type TransportResponse } from './transport.ts';
import type { ReplayFallback } from './settings.ts';

interface NV {
  name: string;
  value: string;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: unknown[];
    headers: NV[];
    queryString: NV[];
    postData?: { mimeType: string; text: string };
    headersSize: number;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: unknown[];
    headers: NV[];
    content: { size: number; mimeType: string; text?: string; encoding?: string };
    redirectURL: string;
    headersSize: number;
    bodySize: number;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  /** trawl's own fields (HAR allows `_`-prefixed custom fields). */
  _trawl?: { browser?: boolean };
}

export interface HarLog {
  log: { version: '1.2'; creator: { name: string; version: string }; pages: unknown[]; entries: HarEntry[] };
}

/** Request headers never written to disk: they carry the user's or the proxy's secrets. */
const REDACT = new Set(['cookie', 'authorization', 'proxy-authorization', 'csrf-token']);

const STATUS_TEXT: Record<number, string> = { 200: 'OK', 301: 'Moved Permanently', 302: 'Found', 303: 'See Other', 307: 'Temporary Redirect', 308: 'Permanent Redirect', 403: 'Forbidden', 404: 'Not Found', 429: 'Too Many Requests', 500: 'Internal Server Error', 503: 'Service Unavailable' };

/**
 * Builds one HAR entry from a request and its (decoded) response.
 *
 * @example
 *   harEntry(req, res, 42, new Date())
 */
export function harEntry(req: Pick<TransportRequest, 'url' | 'method' | 'headers' | 'body'>, res: TransportResponse, ms: number, started: Date, browser = false): HarEntry {
  const u = new URL(req.url);
  const resHeaders: NV[] = Object.entries(res.headers).map(([name, value]) => ({ name, value }));
  for (const c of res.setCookie) resHeaders.push({ name: 'set-cookie', value: c });
  const location = res.headers.location;
  return {
    startedDateTime: started.toISOString(),
    time: Math.round(ms),
    request: {
      method: req.method,
      url: req.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: Object.entries(req.headers).map(([name, value]) => ({ name, value: REDACT.has(name.toLowerCase()) ? '***' : value })),
      queryString: [...u.searchParams].map(([name, value]) => ({ name, value })),
      ...(req.body !== undefined ? { postData: { mimeType: req.headers['content-type'] ?? 'application/octet-stream', text: req.body } } : {}),
      headersSize: -1,
      bodySize: req.body === undefined ? 0 : Buffer.byteLength(req.body),
    },
    response: {
      status: res.status,
      statusText: STATUS_TEXT[res.status] ?? '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: resHeaders,
      content: { size: res.bytes, mimeType: res.headers['content-type'] ?? '', text: res.body },
      redirectURL: location ? new URL(location, req.url).href : '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: Math.round(ms), receive: 0 },
    ...(browser ? { _trawl: { browser: true } } : {}),
  };
}

/**
 * Collects exchanges and writes them to a HAR file. `target` ending in `.har` is the file of this
 * run; anything else is a directory that receives one `trawl-<time>-<pid>.har` per run.
 * Writes are atomic (temp file + rename) and batched; `close()` writes the final state.
 *
 * @example
 *   const rec = new HarRecorder('/tmp/run.har'); rec.add(entry); await rec.close();
 */
export class HarRecorder {
  readonly file: string;
  private readonly entries: HarEntry[] = [];
  private timer?: NodeJS.Timeout;
  private dirty = false;
  private readonly onExit = () => this.flushSync();

  constructor(target: string) {
    if (target.toLowerCase().endsWith('.har')) {
      fs.mkdirSync(path.dirname(path.resolve(target)), { recursive: true });
      this.file = path.resolve(target);
    } else {
      fs.mkdirSync(target, { recursive: true });
      const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '');
      this.file = path.resolve(target, `trawl-${stamp}-${process.pid}.har`);
    }
    this.flushSync();
    process.once('exit', this.onExit);
  }

  add(entry: HarEntry): void {
    this.entries.push(entry);
    this.dirty = true;
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.flushSync();
    }, 250).unref();
  }

  /** The HAR document as it stands. */
  toJSON(): HarLog {
    return { log: { version: '1.2', creator: { name: 'trawl', version: '0.1.0' }, pages: [], entries: this.entries } };
  }

  flushSync(): void {
    const tmp = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(this.toJSON(), null, 1));
    fs.renameSync(tmp, this.file);
    this.dirty = false;
  }

  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.dirty || this.entries.length === 0) this.flushSync();
    process.removeListener('exit', this.onExit);
  }
}

/** Wraps a transport and records every exchange it completes. */
export class RecordingTransport implements Transport {
  constructor(
    private readonly inner: Transport,
    readonly recorder: HarRecorder,
  ) {}

  async send(req: TransportRequest): Promise<TransportResponse> {
    const started = new Date();
    const t0 = performance.now();
    const res = await this.inner.send(req);
    this.recorder.add(harEntry(req, res, performance.now() - t0, started));
    return res;
  }

  connectDelayMs(req: Pick<TransportRequest, 'url' | 'proxyUrl' | 'fingerprint'>): number {
    return this.inner.connectDelayMs?.(req) ?? 0;
  }

  async close(): Promise<void> {
    await this.inner.close();
    await this.recorder.close();
  }
}

/**
 * Query parameters whose values change on every visit (tracking ids, cache busters, timestamps):
 * ignored by the 'volatile' fallback.
 */
export const VOLATILE_PARAMS = ['ei', 'ved', 'sei', 'psi', 'zx', '_', 'rlz', 'sca_esv', 'sxsrf', 'iflsig', 'gs_lcrp', 'gs_lp', 'oq', 'sclient', 'biw', 'bih', 'dpr', 'uact', 'vet', 'ech', 'cb', 'callback', 'ts', 't', 'timestamp', 'nonce', 'rid', 'cachebust', 'cache_bust', '_t', '_ts', 'xsrf', 'csrf'];

/**
 * Canonical URL for matching: lower-case scheme/host, default port dropped, no fragment, query
 * parameters sorted by name (values of the same name keep their order), optionally some dropped.
 *
 * @example
 *   normalizeUrl('https://Maps.Google.com:443/search?q=a&hl=en#x') // 'https://maps.google.com/search?hl=en&q=a'
 */
export function normalizeUrl(url: string, drop?: Set<string> | 'all'): string {
  const u = new URL(url);
  u.hash = '';
  const params = drop === 'all' ? [] : [...u.searchParams].filter(([k]) => !drop?.has(k));
  params.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  u.search = '';
  const q = new URLSearchParams(params).toString();
  return u.href + (q ? `?${q}` : '');
}

const bodyKey = (body: string | undefined) => (body ? createHash('sha1').update(body).digest('hex').slice(0, 16) : '');

/**
 * Reads HAR entries from a file or from every `*.har` in a directory (name order).
 *
 * @example
 *   const entries = loadHar('test/recordings');
 */
export function loadHar(target: string): HarEntry[] {
  let files: string[];
  try {
    files = fs.statSync(target).isDirectory()
      ? fs.readdirSync(target).filter((f) => f.toLowerCase().endsWith('.har')).sort().map((f) => path.join(target, f))
      : [target];
  } catch (e) {
    throw new Error(`REPLAY_HAR: cannot read ${target}: ${(e as Error).message}`);
  }
  const out: HarEntry[] = [];
  for (const f of files) {
    let doc: HarLog;
    try {
      doc = JSON.parse(fs.readFileSync(f, 'utf8'));
    } catch (e) {
      throw new Error(`REPLAY_HAR: ${f} is not a HAR file: ${(e as Error).message}`);
    }
    if (!Array.isArray(doc?.log?.entries)) throw new Error(`REPLAY_HAR: ${f} has no log.entries`);
    out.push(...doc.log.entries);
  }
  return out;
}

/** How a replayed body's bytes decode: they are its recorded text as UTF-8, whatever the entry's charset. */
const AS_UTF8 = 'text/plain; charset=utf-8';

export interface ReplayOptions {
  fallback?: ReplayFallback;
  volatileParams?: string[];
}

/**
 * Serves recorded responses. Match order: method + URL + body, method + URL (query order
 * normalised), then per `fallback`: URL without volatile params, or path without any query.
 * Several entries under one key are served in recorded order; the last one repeats.
 *
 * @example
 *   const t = new ReplayTransport(loadHar('run.har'), { fallback: 'volatile' });
 */
export class ReplayTransport implements Transport {
  private readonly tiers: Array<Map<string, HarEntry[]>> = [new Map(), new Map(), new Map(), new Map()];
  private readonly cursors = new Map<string, number>();
  private readonly fallback: ReplayFallback;
  private readonly volatile: Set<string>;

  constructor(entries: HarEntry[], opts: ReplayOptions = {}) {
    this.fallback = opts.fallback ?? 'volatile';
    this.volatile = new Set(opts.volatileParams ?? VOLATILE_PARAMS);
    for (const e of entries) {
      const keys = this.keysOf(e.request.method, e.request.url, e.request.postData?.text);
      keys.forEach((k, i) => {
        const list = this.tiers[i].get(k);
        if (list) list.push(e);
        else this.tiers[i].set(k, [e]);
      });
    }
  }

  private keysOf(method: string, url: string, body?: string): string[] {
    const m = method.toUpperCase();
    const exact = normalizeUrl(url);
    return [
      `${m} ${exact} ${bodyKey(body)}`,
      `${m} ${exact}`,
      `${m} ${normalizeUrl(url, this.volatile)}`,
      `${m} ${normalizeUrl(url, 'all')}`,
    ];
  }

  /** The recorded entry for a request, or undefined. */
  match(method: string, url: string, body?: string): HarEntry | undefined {
    const keys = this.keysOf(method, url, body);
    const usable = this.fallback === 'none' ? 2 : this.fallback === 'volatile' ? 3 : 4;
    for (let i = 0; i < usable; i++) {
      const list = this.tiers[i].get(keys[i]);
      if (!list) continue;
      const ck = `${i} ${keys[i]}`;
      const n = this.cursors.get(ck) ?? 0;
      this.cursors.set(ck, n + 1);
      return list[Math.min(n, list.length - 1)];
    }
    return undefined;
  }

  async send(req: TransportRequest): Promise<TransportResponse> {
    if (req.signal.aborted) throw req.signal.reason;
    const e = this.match(req.method, req.url, req.body);
    if (!e) throw markFinal(new SourceError('network', `no recorded response for ${req.method} ${req.url}`));
    const headers: Record<string, string> = {};
    const setCookie: string[] = [];
    for (const h of e.response.headers) addHeader(headers, setCookie, h.name.toLowerCase(), h.value);
    const known = this.bodyOf(e, headers['content-type']);
    if (known.bytes > req.maxBytes) {
      throw markFinal(new SourceError('network', `too large: recorded response for ${req.url} exceeds ${req.maxBytes} bytes`));
    }
    if (e.response.redirectURL && !headers.location) headers.location = e.response.redirectURL;
    const res = { status: e.response.status, url: req.url, headers, setCookie, bytes: known.bytes, replayed: true };
    // A copy of the bytes a response, as the network hands fresh ones: decoded only where read.
    return known.utf8 ? withBody(res, Buffer.from(known.utf8), AS_UTF8) : { ...res, body: known.body! };
  }

  /** An entry's body as UTF-8 bytes and their size, worked out once: a replayed entry is served again
   *  and again (measuring a 191 KB body was 3 % of a replaying service's API thread, issue 15). A text
   *  its bytes would not decode back to (a lone surrogate; a leading U+FEFF, read as a byte order
   *  mark) is kept as the text and served as it. */
  private readonly bodies = new WeakMap<HarEntry, { body?: string; utf8?: Buffer; bytes: number }>();

  private bodyOf(e: HarEntry, contentType: string | undefined): { body?: string; utf8?: Buffer; bytes: number } {
    let known = this.bodies.get(e);
    if (!known) {
      const c = e.response.content;
      const body = c.encoding === 'base64' ? decodeText(Buffer.from(c.text ?? '', 'base64'), c.mimeType || contentType) : c.text ?? '';
      const utf8 = Buffer.from(body);
      known = decodeText(utf8, AS_UTF8) === body ? { utf8, bytes: utf8.length } : { body, bytes: utf8.length };
      this.bodies.set(e, known);
    }
    return known;
  }

  async close(): Promise<void> {}
}
