/**
 * Optional headless Chromium for steps that have no HTTP path (`browser: true`). Launched on the
 * first such step (most deployments never pay for it), at most `browserMaxPages` pages at once,
 * a fresh temporary profile per launch, closed on shutdown. Uses the system Chromium
 * (CHROMIUM_PATH, Debian's /usr/bin/chromium by default) through playwright-core: no browser
 * download at install time.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Route } from 'playwright-core';
import type { FetchedResponse, Step } from '../sources/_kit/adapter.ts';
import { SourceError, isSourceError } from '../sources/_kit/errors.ts';
import { markFinal } from './retry.ts';
import type { ExecutorSettings } from './settings.ts';
import { checkUrl, type GuardOptions } from './ssrf.ts';

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

export class BrowserPool {
  private readonly settings: BrowserSettings;
  private readonly guard: GuardOptions;
  private context?: Promise<BrowserContext>;
  private profileDir?: string;
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  private closed = false;

  /**
   * @example
   *   const pool = new BrowserPool({ ...DEFAULT_SETTINGS, chromiumPath: '/usr/bin/chromium' });
   *   const res = await pool.run({ kind: 'page', url, expect: 'html', browser: true });
   */
  constructor(settings: BrowserSettings, guard: GuardOptions = {}) {
    this.settings = settings;
    this.guard = guard;
  }

  private launch(): Promise<BrowserContext> {
    this.context ??= (async () => {
      if (!fs.existsSync(this.settings.chromiumPath)) {
        throw markFinal(new SourceError('network', `browser step needs Chromium at ${this.settings.chromiumPath} (set CHROMIUM_PATH)`));
      }
      const { chromium } = await import('playwright-core');
      this.profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trawl-chromium-'));
      const proxy = this.browserProxy();
      const ctx = await chromium.launchPersistentContext(this.profileDir, {
        executablePath: this.settings.chromiumPath,
        headless: true,
        args: CHROMIUM_FLAGS,
        locale: this.settings.locales[0],
        ...(proxy ? { proxy } : {}),
      });
      // Every request the page makes (redirects, frames, scripts) passes the SSRF guard.
      await ctx.route('**/*', (route) => this.guardRoute(route));
      return ctx;
    })();
    this.context.catch(() => {
      this.context = undefined;
    });
    return this.context;
  }

  /** Chromium takes one proxy per browser; the first configured one (SOCKS without auth only). */
  private browserProxy(): { server: string; username?: string; password?: string } | undefined {
    const first = this.settings.proxyUrls[0];
    if (!first) return undefined;
    const u = new URL(first);
    return {
      server: `${u.protocol}//${u.host}`,
      ...(u.username ? { username: decodeURIComponent(u.username), password: decodeURIComponent(u.password) } : {}),
    };
  }

  private async guardRoute(route: Route): Promise<void> {
    const url = route.request().url();
    if (url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
    try {
      await checkUrl(url, this.guard);
    } catch {
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
   * Opens the step's URL in a new page and returns the rendered HTML.
   *
   * @example
   *   (await pool.run(step)).body.includes('</html>')
   */
  async run(step: Step, signal?: AbortSignal): Promise<FetchedResponse> {
    if (this.closed) throw new Error('browser pool is closed');
    await this.slot(signal);
    try {
      const ctx = await this.launch();
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
        if (/ERR_BLOCKED_BY_CLIENT/.test(msg)) throw new SourceError('forbidden_target', `refused target in browser: ${step.url}`);
        throw new SourceError('network', `browser: ${msg.split('\n')[0]}`, { cause: e });
      } finally {
        signal?.removeEventListener('abort', onAbort);
        await page.close().catch(() => undefined);
      }
    } finally {
      this.freeSlot();
    }
  }

  /** Closes Chromium and removes its temporary profile. */
  async close(): Promise<void> {
    this.closed = true;
    const ctx = await this.context?.catch(() => undefined);
    await ctx?.close().catch(() => undefined);
    if (this.profileDir) fs.rmSync(this.profileDir, { recursive: true, force: true });
  }
}
