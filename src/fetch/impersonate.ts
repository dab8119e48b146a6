/**
 * The browser-true transport: requests leave with a real browser's TLS ClientHello (GREASE, cipher
 * and extension order, ALPN h2 + http/1.1, ALPS, certificate compression, Firefox's record size
 * limit), HTTP/2 SETTINGS, WINDOW_UPDATE, pseudo-header order and our headers in the generated
 * browser's order, through wreq-js (BoringSSL + an HTTP/2 stack that follows each browser's
 * profile; docs/architecture.md says why this library). The profile is the request's
 * `fingerprint`, chosen per session from its User-Agent (fingerprint.ts).
 *
 * Direct connections stay behind the SSRF guard: each host is resolved here, every address
 * checked, and the connection pinned to those addresses (wreq's `resolve`), so what was checked is
 * what is connected to (no DNS rebinding). Through a proxy, the proxy resolves, as with undici.
 */
import dns from 'node:dns';
import type { ReadableStream } from 'node:stream/web';
import net from 'node:net';
import { createRequire } from 'node:module';
import type * as Wreq from 'wreq-js';
import { SourceError } from '../sources/_kit/errors.ts';
import { finalIfNoSuchName } from './retry.ts';
import { decompress, tooLarge } from './decode.ts';
import { withBody } from './lazy-body.ts';
import { addressRefusal, type GuardOptions } from './ssrf.ts';
import { addHeader, HttpTransport, toNetworkError, type Transport, type TransportRequest, type TransportResponse } from './transport.ts';

/** wreq-js loads its native module on first use only: deployments on `FETCH_PROFILE=node` never pay for it. */
let wreqModule: typeof Wreq | undefined;
function wreq(): typeof Wreq {
  wreqModule ??= createRequire(import.meta.url)('wreq-js') as typeof Wreq;
  return wreqModule;
}

/**
 * The handshake profiles wreq-js knows (`chrome_147`, `firefox_151`, ...).
 *
 * @example
 *   handshakeProfiles().includes('chrome_147')
 */
export function handshakeProfiles(): readonly string[] {
  return wreq().getProfiles();
}

export interface ImpersonatingOptions {
  /** The SSRF guard for direct connections (the executor's). */
  guard?: GuardOptions;
  /** Accept any certificate: loopback tests and benches only. */
  insecure?: boolean;
  /** Transports (connection pools) kept at once, least recently used closed first. */
  maxPools?: number;
  /** How long a checked DNS answer pins a host (ms). */
  dnsTtlMs?: number;
}

/** A request's own time limit is the executor's signal; wreq's is set past it. */
const WREQ_TIMEOUT_MS = 24 * 3600_000;
/** wreq closes a pool's idle connections after this. */
const POOL_IDLE_MS = 30_000;
/**
 * What opening a connection costs before anything was measured: a process's first handshakes
 * (the native module, BoringSSL and the HTTP/2 stack warming up) took 400-580 ms on the loaded
 * 2-core box, against 2-36 ms for a request on an open connection (botwall-cluster, 4 workers).
 */
const COLD_CONNECT_MS = 500;

export class ImpersonatingTransport implements Transport {
  private readonly opts: ImpersonatingOptions;
  private readonly pools = new Map<string, Promise<Wreq.Transport>>();
  private readonly pins = new Map<string, { at: number; addrs: Promise<string[]> }>();
  /** When each proxied pool last sent (an idle pool's connections are closed: the next opens one). */
  private readonly usedAt = new Map<string, number>();
  /** Time to the answer of the last request that opened a connection: what the next one costs.
   *  (An average kept the slow opens of a run's first second, when every process woke at once,
   *  long after the opens had become fast: a fifth of the starts took a second place.) */
  private connectMs = COLD_CONNECT_MS;
  /** Pools a request was told it opens (`connectDelayMs`) and has not been sent through yet. */
  private readonly toOpen = new Set<string>();

  /**
   * @example
   *   const t = new ImpersonatingTransport({ guard: {} });
   *   await t.send({ url, method: 'GET', headers, signal, maxBytes, fingerprint: session.fingerprint });
   */
  constructor(opts: ImpersonatingOptions = {}) {
    this.opts = opts;
  }

  /**
   * A proxied request through a pool with no open connection is expected that much later at the
   * site (the pacer gives it a longer place); direct requests are not paced per IP: 0. Asked when the
   * request queues for its start: the first to ask opens the pool, those queued behind it on the
   * same proxy (its pace key: they start after it) find it open. Asked for every queued request
   * instead, 240 items waiting on a wall of 2 requests/s each took a second place (a third more time).
   *
   * @example t.connectDelayMs({ url, proxyUrl, fingerprint }) // 500 before this process opened any
   */
  connectDelayMs(req: Pick<TransportRequest, 'url' | 'proxyUrl' | 'fingerprint'>): number {
    if (!req.proxyUrl || !req.fingerprint) return 0;
    const key = proxiedKey(req.fingerprint, req.proxyUrl);
    if (!this.opens(key)) return 0;
    this.usedAt.set(key, performance.now());
    this.toOpen.add(key);
    if (this.toOpen.size > 4096) this.toOpen.delete(this.toOpen.keys().next().value as string);
    return this.connectMs;
  }

  private opens(key: string): boolean {
    const at = this.usedAt.get(key);
    return at === undefined || performance.now() - at > POOL_IDLE_MS - 1000;
  }

  async send(req: TransportRequest): Promise<TransportResponse> {
    const fp = req.fingerprint;
    if (!fp) throw new Error('ImpersonatingTransport.send needs a fingerprint');
    try {
      const u = new URL(req.url);
      const pin = req.proxyUrl ? undefined : await this.pin(u);
      const used = req.proxyUrl ? proxiedKey(fp, req.proxyUrl) : undefined;
      const opening = used !== undefined && (this.toOpen.delete(used) || this.opens(used));
      if (used !== undefined) {
        this.usedAt.set(used, performance.now());
        if (this.usedAt.size > 4096) this.usedAt.delete(this.usedAt.keys().next().value as string);
      }
      const t0 = performance.now();
      const transport = await this.pool(fp.handshake, fp.os, req.proxyUrl, u.hostname, pin);
      const res = await wreq().fetch(req.url, {
        method: req.method,
        headers: withPriority(req.headers, fp),
        body: req.body,
        signal: req.signal,
        redirect: 'manual',
        transport,
        // Our headers, in the generated browser's order, and nothing added behind them.
        disableDefaultHeaders: true,
        // Decompressed here, under the byte limit (a gzip bomb must not expand in native memory).
        compress: false,
        timeout: WREQ_TIMEOUT_MS,
      });
      if (opening) this.connectMs = performance.now() - t0;
      if (res.status === 407 && req.proxyUrl && new URL(req.url).protocol === 'http:') {
        // Plain-HTTP targets go to the proxy as absolute-URI requests: its 407 is an answer here, an error for undici.
        await res.body?.cancel().catch(() => undefined);
        throw new SourceError('network', `proxy refused the credentials (407) fetching ${u.host}`);
      }
      const headers: Record<string, string> = {};
      const setCookie: string[] = [];
      for (const [name, value] of res.headers.entries()) if (name !== 'set-cookie') addHeader(headers, setCookie, name, value);
      setCookie.push(...res.headers.getSetCookie());
      const declared = headers['content-length'] === undefined ? NaN : Number(headers['content-length']);
      if (declared > req.maxBytes) {
        await res.body?.cancel().catch(() => undefined);
        throw tooLarge(req.maxBytes, req.url);
      }
      // A declared length under the limit is read in one native call; otherwise chunk by chunk, counted.
      const body = Number.isFinite(declared) ? await whole(res, req.signal) : await readLimited(res.body, req.maxBytes, req.url, req.signal);
      const plain = await decompress(body, headers['content-encoding'], req.maxBytes, req.url);
      return withBody({ status: res.status, url: req.url, headers, setCookie, bytes: plain.length, replayed: false }, plain, headers['content-type']);
    } catch (e) {
      throw toNetworkError(withCode(e), req.url, req.signal);
    }
  }

  /**
   * The checked addresses a direct connection to `u`'s host may use, or undefined when nothing is
   * to pin (the operator allowed every target). Refused hosts throw `forbidden_target`.
   */
  private async pin(u: URL): Promise<string[] | undefined> {
    const guard = this.opts.guard ?? {};
    if (guard.allowPrivate) return undefined;
    const host = u.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    if (net.isIP(host)) {
      const why = addressRefusal(host, guard, host);
      if (why) throw new SourceError('forbidden_target', `refused target ${host}: ${why} address`);
      return undefined;
    }
    const now = performance.now();
    let hit = this.pins.get(host);
    if (!hit || now - hit.at > (this.opts.dnsTtlMs ?? 30_000)) {
      hit = { at: now, addrs: lookupChecked(host, guard) };
      this.pins.set(host, hit);
      if (this.pins.size > 4096) this.pins.delete(this.pins.keys().next().value as string);
      hit.addrs.catch(() => this.pins.delete(host));
    }
    return hit.addrs;
  }

  /** One wreq transport (connection pool) per handshake profile, OS, proxy and pinned host. */
  private pool(handshake: string, os: string, proxy: string | undefined, host: string, pin: string[] | undefined): Promise<Wreq.Transport> {
    const key = `${handshake}|${os}|${proxy ?? ''}|${pin ? `${host}=${pin.join(',')}` : ''}`;
    const hit = this.pools.get(key);
    if (hit) {
      this.pools.delete(key);
      this.pools.set(key, hit);
      return hit;
    }
    const made = wreq().createTransport({
      browser: handshake as Wreq.BrowserProfile,
      os: os as Wreq.EmulationOS,
      ...(proxy ? { proxy } : {}),
      ...(pin ? { resolve: { [host]: pin } } : {}),
      ...(this.opts.insecure ? { insecure: true } : {}),
      poolIdleTimeout: POOL_IDLE_MS,
    });
    this.pools.set(key, made);
    made.catch(() => this.pools.delete(key));
    while (this.pools.size > (this.opts.maxPools ?? 256)) {
      const oldest = this.pools.keys().next().value as string;
      const t = this.pools.get(oldest)!;
      this.pools.delete(oldest);
      void t.then((x) => x.close()).catch(() => undefined);
    }
    return made;
  }

  async close(): Promise<void> {
    const all = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(all.map((p) => p.then((t) => t.close()).catch(() => undefined)));
  }
}

/**
 * Chrome (124+) and Edge send RFC 9218 `priority` last: `u=0, i` for a navigation, `u=1, i` for a
 * page's own fetch. The header generator's samples predate it, so it is added here.
 */
function withPriority(h: Record<string, string>, fp: NonNullable<TransportRequest['fingerprint']>): Array<[string, string]> {
  const out = Object.entries(h);
  if (fp.browser !== 'firefox' && fp.version >= 124 && h.priority === undefined) out.push(['priority', h['sec-fetch-mode'] === 'navigate' ? 'u=0, i' : 'u=1, i']);
  return out;
}

/** The pool a proxied request goes through (`pool`'s key without a pinned host). */
function proxiedKey(fp: NonNullable<TransportRequest['fingerprint']>, proxyUrl: string): string {
  return `${fp.handshake}|${fp.os}|${proxyUrl}|`;
}

/** wreq's errors carry the OS error in their text only: the usual code in front, as undici's errors have. */
const CODES: Array<[RegExp, string]> = [
  [/connection refused/i, 'ECONNREFUSED'],
  [/connection reset/i, 'ECONNRESET'],
  [/timed? ?out/i, 'ETIMEDOUT'],
  // A resolver that did not answer is transient (retried); a name that does not exist is not.
  [/temporary failure in name resolution|try again/i, 'EAI_AGAIN'],
  [/dns error|failed to lookup|name or service not known/i, 'ENOTFOUND'],
  [/certificate|handshake/i, 'ERR_TLS'],
  [/proxy|tunnel/i, 'EPROXY'],
];
function withCode(e: unknown): unknown {
  if (!(e instanceof Error) || (e as NodeJS.ErrnoException).code || e instanceof SourceError) return e;
  const hit = CODES.find(([re]) => re.test(e.message));
  return hit ? Object.assign(e, { code: hit[1] }) : e;
}

/** Every address of `host`, each passing the guard (a name with one private address is refused). */
async function lookupChecked(host: string, guard: GuardOptions): Promise<string[]> {
  if (host === 'localhost' || host.endsWith('.localhost')) {
    if (!addressRefusal('127.0.0.1', guard, host)) return ['127.0.0.1'];
    throw new SourceError('forbidden_target', `refused target ${host}: loopback name`);
  }
  let addrs: Array<{ address: string }>;
  try {
    addrs = await (guard.resolver ?? ((h: string) => dns.promises.lookup(h, { all: true, verbatim: true })))(host);
  } catch (e) {
    throw finalIfNoSuchName(new SourceError('network', `DNS lookup failed for ${host}: ${(e as Error).message}`, { cause: e }));
  }
  if (addrs.length === 0) throw new SourceError('network', `DNS lookup for ${host} returned no address`);
  for (const a of addrs) {
    const why = addressRefusal(a.address, guard, host);
    if (why) throw new SourceError('forbidden_target', `refused target ${host}: not an allowed target`, { detail: `refused target ${host} (${a.address}): ${why} address` });
  }
  return addrs.map((a) => a.address);
}

/** The body of a response whose declared length passed the limit; the caller's signal still ends the wait. */
async function whole(res: Wreq.Response, signal: AbortSignal): Promise<Buffer> {
  const read = res.arrayBuffer();
  if (signal.aborted) throw signal.reason;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return Buffer.from(await Promise.race([read, aborted]));
  } finally {
    signal.removeEventListener('abort', onAbort!);
    read.catch(() => undefined);
  }
}

/** The whole body, aborted past `maxBytes` or when `signal` fires (wreq stops watching it once the headers are in). */
async function readLimited(body: ReadableStream<Uint8Array> | null, maxBytes: number, url: string, signal: AbortSignal): Promise<Buffer> {
  if (!body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let n = 0;
  const reader = body.getReader();
  let fail: ((e: unknown) => void) | undefined;
  const aborted = new Promise<never>((_, reject) => (fail = reject));
  aborted.catch(() => undefined);
  const onAbort = () => fail!(signal.reason);
  if (signal.aborted) onAbort();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), aborted]);
      if (done) break;
      n += value.length;
      if (n > maxBytes) throw tooLarge(maxBytes, url);
      chunks.push(value);
    }
  } catch (e) {
    await reader.cancel().catch(() => undefined);
    throw e;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  return chunks.length === 1 ? Buffer.from(chunks[0].buffer, chunks[0].byteOffset, chunks[0].length) : Buffer.concat(chunks, n);
}

/**
 * The live transport of the executor: requests that carry a fingerprint go out browser-true,
 * the rest (FETCH_PROFILE=node, steps that ask for `transport: 'node'`) on undici.
 *
 * @example
 *   const t = new WebTransport({ guard }); // the executor's default
 */
export class WebTransport implements Transport {
  private readonly http = new HttpTransport();
  private browserTrue?: ImpersonatingTransport;
  private readonly opts: ImpersonatingOptions;

  constructor(opts: ImpersonatingOptions = {}) {
    this.opts = opts;
  }

  connectDelayMs(req: Pick<TransportRequest, 'url' | 'proxyUrl' | 'fingerprint'>): number {
    if (!req.fingerprint || !req.proxyUrl) return 0;
    this.browserTrue ??= new ImpersonatingTransport(this.opts); // wreq-js loads on the first send only
    return this.browserTrue.connectDelayMs(req);
  }

  send(req: TransportRequest): Promise<TransportResponse> {
    if (!req.fingerprint) return this.http.send(req);
    this.browserTrue ??= new ImpersonatingTransport(this.opts);
    return this.browserTrue.send(req);
  }

  async close(): Promise<void> {
    await Promise.all([this.http.close(), this.browserTrue?.close()]);
  }
}
