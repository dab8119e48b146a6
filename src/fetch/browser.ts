/**
 * Optional headless Chromium for steps that have no HTTP path (`browser: true`). Launched on the
 * first such step (most deployments never pay for it), at most `browserMaxPages` pages at once,
 * closed on shutdown. Uses the system Chromium (CHROMIUM_PATH, Debian's /usr/bin/chromium by
 * default) through patchright-core, Playwright's API with the automation leaks patched
 * (`navigator.webdriver`, the `Runtime.enable` CDP probe, console hooks): no browser download.
 *
 * Each session gets its own browser context: its own cookies, its proxy (any of PROXY_URLS, HTTP
 * with credentials natively, SOCKS with credentials through a local bridge, socks-bridge.ts) and
 * an injected fingerprint (fingerprint-injector: navigator, screen, WebGL, codecs...) generated
 * for the session's browser, version and OS, carrying the session's own User-Agent, so the page's
 * JavaScript tells the same story as the session's HTTP requests.
 */
import type { Browser, BrowserContext, Route } from 'patchright-core';
import type { BrowserFingerprintWithHeaders } from 'fingerprint-generator';
import type { FetchedResponse, Step } from '../sources/_kit/adapter.ts';
import { SourceError, isSourceError } from '../sources/_kit/errors.ts';
import type { Fingerprint } from './fingerprint.ts';
import { markFinal } from './retry.ts';
import type { ExecutorSettings } from './settings.ts';
import { socksBridge, type SocksBridge } from './socks-bridge.ts';
import { checkUrl, type GuardOptions } from './ssrf.ts';
import fs from 'node:fs';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

type BrowserSettings = Pick<ExecutorSettings, 'chromiumPath' | 'browserMaxPages' | 'timeoutMs' | 'maxResponseBytes' | 'proxyUrls' | 'locales'>;

/** Who a browser step runs as: the session's key, headers, browser and proxy. */
export interface BrowserIdentity {
  key: string;
  headers?: Readonly<Record<string, string>>;
  fingerprint?: Fingerprint;
  /** The session's proxy URL (credentials included); undefined: the next of PROXY_URLS. */
  proxyUrl?: string;
}

interface Identity {
  context: Promise<BrowserContext>;
  bridge?: SocksBridge;
  /** What was injected: for tests and the operator's view. */
  fingerprint?: BrowserFingerprintWithHeaders;
}

/** Contexts kept at once (least recently used closed first). */
const MAX_CONTEXTS = 16;

/** What a browser step fails with on a server without Chromium (the API's message: no path in it). */
export const NO_BROWSER = 'this server has no browser for this source\'s browser step: its operator installs Chromium (Debian: apt install chromium) or sets CHROMIUM_PATH';

/** True for a file this process may execute. */
function isExecutable(path: string): boolean {
  try {
    fs.accessSync(path, fs.constants.X_OK);
    return fs.statSync(path).isFile();
  } catch {
    return false;
  }
}

export class BrowserPool {
  private readonly settings: BrowserSettings;
  private readonly guard: GuardOptions;
  private browser?: Promise<Browser>;
  private readonly identities = new Map<string, Identity>();
  private proxyCursor = 0;
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  private closed = false;
  /** Why the guard refused a page's navigation, by page (see guardRoute). */
  private readonly refused = new WeakMap<object, SourceError>();

  /**
   * @example
   *   const pool = new BrowserPool({ ...DEFAULT_SETTINGS, chromiumPath: '/usr/bin/chromium' });
   *   const res = await pool.run({ kind: 'page', url, expect: 'html', browser: true });
   */
  constructor(settings: BrowserSettings, guard: GuardOptions = {}) {
    this.settings = settings;
    this.guard = guard;
  }

  private launch(): Promise<Browser> {
    this.browser ??= (async () => {
      if (!isExecutable(this.settings.chromiumPath)) {
        // The path is the operator's to know (logs, trawl canary), not the API's to tell.
        throw markFinal(new SourceError('misconfigured', NO_BROWSER, { detail: `CHROMIUM_PATH ${this.settings.chromiumPath} is not an executable file` }));
      }
      const { chromium } = await import('patchright-core');
      return chromium.launch({
        executablePath: this.settings.chromiumPath,
        headless: true,
        args: CHROMIUM_FLAGS,
        // Every context brings its own proxy; Chromium wants a browser-wide one to allow that.
        ...(this.settings.proxyUrls.length ? { proxy: { server: 'http://per-context' } } : {}),
      });
    })();
    this.browser.catch(() => {
      this.browser = undefined;
    });
    return this.browser;
  }

  /** The context of an identity, made on first use: proxy, fingerprint, SSRF route guard. */
  private contextFor(who: BrowserIdentity): Identity {
    const hit = this.identities.get(who.key);
    if (hit) {
      this.identities.delete(who.key);
      this.identities.set(who.key, hit);
      return hit;
    }
    const id: Identity = { context: Promise.resolve(undefined as unknown as BrowserContext) };
    id.context = (async () => {
      const browser = await this.launch();
      const proxyUrl = who.proxyUrl ?? this.nextProxy();
      let proxy: { server: string; bypass?: string; username?: string; password?: string } | undefined;
      if (proxyUrl) {
        const u = new URL(proxyUrl);
        if (u.protocol.startsWith('socks') && u.username) {
          // Chromium speaks SOCKS without authentication only: it talks to our bridge instead.
          id.bridge = await socksBridge(proxyUrl);
          proxy = { server: id.bridge.url, bypass: '<-loopback>' };
        } else {
          proxy = {
            server: `${u.protocol}//${u.host}`,
            // Chromium skips proxies for loopback on its own; an operator-allowed loopback target goes through the proxy like any other.
            bypass: '<-loopback>',
            ...(u.username ? { username: decodeURIComponent(u.username), password: decodeURIComponent(u.password) } : {}),
          };
        }
      }
      id.fingerprint = await browserFingerprint(who, this.settings.locales);
      const { newInjectedContext } = await import('fingerprint-injector');
      const ctx = (await newInjectedContext(browser as never, {
        fingerprint: id.fingerprint,
        newContextOptions: { locale: this.settings.locales[0], ...(proxy ? { proxy } : {}) },
      })) as unknown as BrowserContext;
      // Every request the page makes (redirects, frames, scripts) passes the SSRF guard.
      await ctx.route('**/*', (route) => this.guardRoute(route));
      return ctx;
    })();
    id.context.catch(() => this.identities.delete(who.key));
    this.identities.set(who.key, id);
    while (this.identities.size > MAX_CONTEXTS) {
      const [oldest, old] = this.identities.entries().next().value as [string, Identity];
      this.identities.delete(oldest);
      void closeIdentity(old);
    }
    return id;
  }

  private nextProxy(): string | undefined {
    const list = this.settings.proxyUrls;
    if (!list.length) return undefined;
    return list[this.proxyCursor++ % list.length];
  }

  /**
   * The fingerprint injected for an identity (after its first step), for tests and diagnostics.
   *
   * @example
   *   pool.fingerprintOf('q1')?.fingerprint.navigator.platform
   */
  fingerprintOf(key: string): BrowserFingerprintWithHeaders | undefined {
    return this.identities.get(key)?.fingerprint;
  }

  private async guardRoute(route: Route): Promise<void> {
    const url = route.request().url();
    if (url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
    try {
      await checkUrl(url, this.guard);
    } catch (e) {
      // Why the page's own address was refused: a name that does not resolve is a network error, not a forbidden target.
      if (isSourceError(e) && route.request().isNavigationRequest()) {
        try { this.refused.set(route.request().frame().page(), e); } catch { /* no page (a worker's request) */ }
      }
      return route.abort('blockedbyclient');
    }
    return route.continue();
  }

  private async slot(signal?: AbortSignal): Promise<void> {
    if (this.active < this.settings.browserMaxPages) {
      this.active++;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const go = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        const i = this.waiting.indexOf(go);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(go);
    });
    this.active++;
  }

  private freeSlot(): void {
    this.active--;
    this.waiting.shift()?.();
  }

  /**
   * Opens the step's URL in a new page of the identity's context and returns the rendered HTML.
   *
   * @example
   *   (await pool.run(step, signal, { key: session.key, headers: session.headers, fingerprint: session.fingerprint })).body
   */
  async run(step: Step, signal?: AbortSignal, who: BrowserIdentity = { key: '' }): Promise<FetchedResponse> {
    if (this.closed) throw new Error('browser pool is closed');
    await this.slot(signal);
    try {
      const ctx = await this.contextFor(who).context;
      const page = await ctx.newPage();
      const onAbort = () => void page.close().catch(() => undefined);
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        if (step.headers) await page.setExtraHTTPHeaders(step.headers);
        const resp = await page.goto(step.url, { waitUntil: 'domcontentloaded', timeout: this.settings.timeoutMs });
        const body = await page.content();
        if (Buffer.byteLength(body) > this.settings.maxResponseBytes) {
          throw markFinal(new SourceError('network', `too large: page ${new URL(step.url).host} exceeds ${this.settings.maxResponseBytes} bytes`));
        }
        return { status: resp?.status() ?? 200, url: page.url(), headers: resp ? await resp.allHeaders() : {}, body };
      } catch (e) {
        if (signal?.aborted && isSourceError(signal.reason)) throw signal.reason;
        if (isSourceError(e)) throw e;
        const msg = (e as Error).message ?? String(e);
        if (/ERR_BLOCKED_BY_CLIENT/.test(msg)) {
          const why = this.refused.get(page);
          if (why?.type === 'network') throw why;
          throw new SourceError('forbidden_target', `refused target in browser: ${step.url}`);
        }
        throw new SourceError('network', `browser: ${msg.split('\n')[0]}`, { cause: e });
      } finally {
        signal?.removeEventListener('abort', onAbort);
        await page.close().catch(() => undefined);
      }
    } finally {
      this.freeSlot();
    }
  }

  /** Closes every context, their SOCKS bridges and Chromium (Playwright removes its temporary profile). */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.identities.values()];
    this.identities.clear();
    await Promise.all(all.map(closeIdentity));
    const browser = await this.browser?.catch(() => undefined);
    await browser?.close().catch(() => undefined);
  }
}

async function closeIdentity(id: Identity): Promise<void> {
  const ctx = await id.context.catch(() => undefined);
  await ctx?.close().catch(() => undefined);
  await id.bridge?.close();
}

/**
 * A fingerprint for the identity's browser: Chromium's family (the engine is Chromium, so a
 * Firefox session is shown as Chrome on its OS), the session's version and OS when the generator
 * has them, and the session's own User-Agent, so navigator and HTTP agree.
 */
async function browserFingerprint(who: BrowserIdentity, locales: string[]): Promise<BrowserFingerprintWithHeaders> {
  const { FingerprintGenerator } = await import('fingerprint-generator');
  const fp = who.fingerprint;
  const chromium = fp && fp.browser !== 'firefox';
  const name = chromium ? fp.browser : 'chrome';
  const os = fp?.os ?? 'windows';
  const gen = new FingerprintGenerator({ devices: ['desktop'], locales });
  let out: BrowserFingerprintWithHeaders | undefined;
  for (const browsers of [chromium ? [{ name, minVersion: fp.version, maxVersion: fp.version }] : [name], [name]] as const) {
    try {
      out = gen.getFingerprint({ browsers: browsers as never, operatingSystems: [os] });
      break;
    } catch {
      // no sample with that version on that OS: relax the version
    }
  }
  out ??= gen.getFingerprint({ browsers: ['chrome'] });
  const ua = chromium ? who.headers?.['user-agent'] : undefined;
  if (ua) {
    out.fingerprint.navigator.userAgent = ua;
    out.headers['user-agent'] = ua;
  }
  return out;
}
