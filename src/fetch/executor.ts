/**
 * The executor: the only code that does network I/O for source adapters (DESIGN.md principle 3).
 * A step goes in, a decoded response or a typed `SourceError` comes out. In between: browser-like
 * headers and cookies per session, proxies, per-host limits, redirects with the SSRF guard on
 * each hop, size and time limits, block/captcha/consent detection, retries, record/replay.
 */
import type { Dispatcher } from 'undici';
import { Agent } from 'undici';
import type { FetchedResponse, Step } from '../sources/_kit/adapter.ts';
import { SourceError, isSourceError } from '../sources/_kit/errors.ts';
import { BrowserPool } from './browser.ts';
import { detect, RULES, type DetectRule } from './detect.ts';
import { onLayoutChange, type FetchEvent } from './events.ts';
import { HarRecorder, harEntry, loadHar, RecordingTransport, ReplayTransport } from './har.ts';
import { HostLimiter } from './limits.ts';
import { ProxyPool, type ProxyEntry } from './proxy.ts';
import { ProxyChoice } from './proxy-choice.ts';
import { ProxyHealth } from './proxy-health.ts';
import { throughProxy } from './proxy-errors.ts';
import { Pacer, type PaceOutcome, type PaceSlot, type PaceStart } from './pacing.ts';
import { HostTiers, type TierOutcome } from './tiers.ts';
import { backoffDelay, isFinal, parseRetryAfter, sleep } from './retry.ts';
import { SessionPool, type ScoredError, type SessionHandle } from './session.ts';
import { DEFAULT_SETTINGS, type ExecutorSettings } from './settings.ts';
import { credentialFor } from './credentials.ts';
import { SharedBench, SignedInPool, signedOutAnswer, type SignedInAccount } from './signed-in.ts';
import { checkUrl, guardedAgent, type GuardOptions, type Resolver } from './ssrf.ts';
import { toNetworkError, type Transport, type TransportResponse } from './transport.ts';
import { bodyFrom } from './lazy-body.ts';
import type { Fingerprint } from './fingerprint.ts';
import { handshakeProfiles, WebTransport } from './impersonate.ts';
import type { ClusterLink } from './cluster/link.ts';
import { LocalStates, type SharedStates } from './cluster/shared-states.ts';

export type { SessionHandle } from './session.ts';

export interface ExecutorOptions {
  /** Metrics hook: request done, error by type (with retry decision), layout changes. */
  onEvent?: (e: FetchEvent) => void;
  /** Detection table (default: RULES from detect.ts). */
  rules?: DetectRule[];
  /** Replaces the network transport (tests); record/replay settings still wrap/replace it. */
  transport?: Transport;
  /** DNS for the SSRF pre-check (tests). */
  resolver?: Resolver;
  /** Random source for backoff jitter (tests). */
  random?: () => number;
  /** The worker processes' shared pacing, benches, tiers and back-offs (src/fetch/cluster/link.ts);
   *  without it, this process's own. */
  cluster?: ClusterLink;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/**
 * Pacing keeps this share under `PER_PROXY_RPS`. Requests never reach a site as evenly as they
 * start (connections, proxies, a busy box bunch them), and a site's token bucket refilled at
 * exactly the rate we send never recovers the tokens a bunched arrival took: the next bunch gets
 * 429s. 5 % under the cap, a drained bucket of 10 refills in 8 s at 25 requests/s.
 */
export const CAP_MARGIN = 0.05;
const XHR_EXPECT = new Set(['json', 'xssi-json']);

/** host:port of a URL, the key of per-host limits. */
function hostKey(u: URL): string {
  return u.port ? `${u.hostname}:${u.port}` : `${u.hostname}:${u.protocol === 'https:' ? 443 : 80}`;
}

/** hostKey of a URL text, or undefined when it is not a URL. */
function hostKeyOf(url: string): string | undefined {
  try {
    return hostKey(new URL(url));
  } catch {
    return undefined;
  }
}

export class Executor {
  readonly settings: ExecutorSettings;
  private readonly opts: ExecutorOptions;
  private readonly transport: Transport;
  private readonly recorder?: HarRecorder;
  private readonly replaying: boolean;
  private readonly proxies: ProxyPool;
  private readonly sessions: SessionPool;
  /** The operator's signed-in accounts (./signed-in.ts); empty unless configured. */
  readonly signedIn: SignedInPool;
  private readonly limiter: HostLimiter;
  private readonly pacer: Pacer;
  private readonly health: ProxyHealth;
  private readonly tiers: HostTiers;
  private readonly direct: Dispatcher;
  private readonly guard: GuardOptions;
  /** `checkUrl` options for user URLs: the guard, without DNS while replaying. */
  private readonly urlCheck: GuardOptions;
  private readonly rules: DetectRule[];
  private readonly anonymousHeaders: Record<string, string>;
  private readonly anonymousFingerprint?: Fingerprint;
  private readonly offLayout?: () => void;
  private browser?: BrowserPool;
  /** Key → state with expiry shared with the other worker processes (identities' health, benches). */
  readonly shared: SharedStates;
  private readonly offCluster: Array<() => void> = [];
  /** Identities whose first request is out (`firstAlone`): resolved when it is answered. */
  private readonly warmups = new WeakMap<SessionHandle, Promise<void>>();
  private closed = false;

  /**
   * @example
   *   const ex = new Executor(executorSettingsFromEnv(process.env), { onEvent: (e) => metrics.count(e) });
   *   const res = await ex.run(step, ex.sessionFor(workItemId), signal);
   */
  constructor(settings: Partial<ExecutorSettings> = {}, opts: ExecutorOptions = {}) {
    this.settings = { ...DEFAULT_SETTINGS, ...settings };
    const s = this.settings;
    this.opts = opts;
    this.rules = opts.rules ?? RULES;
    this.guard = { allowPrivate: s.allowPrivateTargets, allow: s.allowedTargets, resolver: opts.resolver };
    const agentOpts: Agent.Options = { connections: Math.max(s.perHostConcurrency, 1) * 2, keepAliveTimeout: 30_000 };
    // Direct traffic always goes through the connect-time guard, unless the operator opened it.
    this.direct = s.allowPrivateTargets ? new Agent(agentOpts) : guardedAgent(this.guard, agentOpts);
    this.proxies = new ProxyPool(s.proxyTiers.length ? s.proxyTiers : s.proxyUrls, s.proxyRotation, agentOpts);
    const cluster = opts.cluster;
    this.shared = cluster ?? new LocalStates();
    this.pacer = new Pacer({ targetConcurrency: s.pacingTargetConcurrency, maxDelayMs: s.pacingMaxDelayMs,
      // With a shared store, capped keys' starts are the cluster's, and back-offs hold every process.
      ...(cluster?.shared ? { slots: cluster, onBackOff: (key: string, ms: number, gap: number) => cluster.pause(key, ms, gap) } : {}) });
    if (cluster) this.offCluster.push(cluster.on('pause', (key, st) => this.pacer.holdOff(key, st.until, Number(st.value) || 0)));
    this.health = new ProxyHealth({ failThreshold: s.proxyFailThreshold, benchBaseMs: s.proxyBenchMs, benchMaxMs: s.proxyBenchMaxMs, shared: this.shared });
    this.tiers = new HostTiers({ tiers: this.proxies.tiers.length, probeEveryMs: s.proxyTierProbeMs, shared: this.shared });
    const identities = new ProxyChoice(this.proxies, this.health, this.tiers, (host, proxy) => this.pacer.readyAt(this.paceSlots(host, proxy)), s.maxRetryAfterMs);
    this.sessions = new SessionPool({ proxies: this.proxies, locales: s.locales, maxSessions: s.maxSessions, profile: s.fetchProfile, handshakes: handshakeProfiles, identities,
      limits: { poolSize: s.sessionPoolSize, maxUses: s.sessionMaxUses, maxAgeMs: s.sessionMaxAgeMs, maxErrorScore: s.sessionMaxErrorScore, errorScoreDecrement: 0.5 } });
    const bench = new SharedBench(this.shared);
    this.offCluster.push(bench.off);
    this.signedIn = new SignedInPool(s.signedIn, bench);
    this.anonymousHeaders = this.sessions.generateHeaders();
    this.anonymousFingerprint = this.sessions.fingerprintFor(this.anonymousHeaders);
    this.limiter = new HostLimiter({ concurrency: s.perHostConcurrency, rps: s.perHostRps, burst: s.perHostBurst });
    this.replaying = Boolean(s.replayHar);
    this.urlCheck = { ...this.guard, resolve: !this.replaying };
    let t: Transport = s.replayHar ? new ReplayTransport(loadHar(s.replayHar), { fallback: s.replayFallback }) : (opts.transport ?? new WebTransport({ guard: this.guard }));
    if (s.recordHar) {
      this.recorder = new HarRecorder(s.recordHar);
      t = new RecordingTransport(t, this.recorder);
    }
    this.transport = t;
    if (opts.onEvent) this.offLayout = onLayoutChange(opts.onEvent);
  }

  /**
   * The sticky session of a work item (or any key): same headers, cookies and (sticky rotation)
   * proxy for every step run with it.
   *
   * @example
   *   const s = ex.sessionFor(`${requestId}/${queryIndex}`);
   */
  sessionFor(key: string): SessionHandle {
    return this.sessions.get(key);
  }

  /** Drops a work item's session once the item is done. */
  releaseSession(key: string): void {
    this.sessions.release(key);
    this.signedIn.release(key);
  }

  private emit(e: FetchEvent): void {
    try {
      this.opts.onEvent?.(e);
    } catch {
      // Metrics must never break a fetch.
    }
  }

  /** Pacing slot of a request: the host, or the host through one proxy (the site sees one IP). */
  private paceSlots(host: string, proxy: ProxyEntry | undefined): PaceSlot[] {
    const rps = this.settings.perProxyRps * (1 - CAP_MARGIN);
    return proxy ? [{ key: `${host}|${proxy.label}`, minDelayMs: rps > 0 ? 1000 / rps : 0 }] : [{ key: host, minDelayMs: 0 }];
  }

  /** Pooled identity of a work item for the step's host (a lease: the same for all its steps there). */
  private leaseFor(key: string, url: string): SessionHandle | undefined {
    const host = hostKeyOf(url);
    return host === undefined ? undefined : this.sessions.get(key, host); // an invalid URL: the attempt reports it
  }

  /**
   * Runs one step: returns the final response or throws a `SourceError`. `session` is a work
   * item's key (a pooled identity of the step's host is leased for it: the engine's way), or an
   * explicit session from `sessionFor`.
   *
   * @example
   *   const res = await ex.run({ kind: 'search', url, expect: 'xssi-json' }, `${requestId}/${queryIndex}`);
   *   adapter.parse(step, res, ctx);
   */
  async run(step: Step, session?: SessionHandle | string, signal?: AbortSignal): Promise<FetchedResponse> {
    if (this.closed) throw new Error('executor is closed');
    const s = this.settings;
    const deadline = performance.now() + s.totalTimeoutMs;
    const workKey = typeof session === 'string' ? session : undefined;
    // Asked again from another identity (a stub answer, src/engine/stubs.ts): the work item leaves
    // its pooled identity of this host for another, and its signed-in account for the next healthy
    // one, or for none on this step when it has no other.
    let signedOut = false;
    if (step.another && workKey !== undefined) {
      const host = hostKeyOf(step.url);
      if (host) this.sessions.moveOn(workKey, host);
      signedOut = this.signedIn.covers(step.url) && !this.signedIn.other(workKey);
    }
    for (let attempt = 0; ; attempt++) {
      const trace: AttemptTrace = { ms: 0 };
      let current: SessionHandle | undefined;
      try {
        current = workKey !== undefined ? this.leaseFor(workKey, step.url) : (session as SessionHandle | undefined);
        // An identity's first request goes alone (`firstAlone`): wait for its answer, then lease
        // again (the answer may have retired it: a block, a dead proxy).
        for (let pending = current && this.firstAlone(current, trace); pending; pending = current && this.firstAlone(current, trace)) {
          await untilAborted(pending, signal);
          current = workKey !== undefined ? this.leaseFor(workKey, step.url) : current;
        }
        // The leased identity's proxy is now spoken for: the next lease (maybe in this same turn,
        // before this attempt reserves its start) sees it busier and picks another.
        // A signed-in account of the step's host, the work item's own while it stays healthy.
        if (workKey !== undefined && !signedOut && this.signedIn.covers(step.url)) trace.account = this.signedIn.pick(workKey);
        if (current?.host !== undefined && current.proxy && !this.replaying) trace.unhold = this.pacer.hold(this.paceSlots(current.host, current.proxy));
        const res = await this.attempt(step, current, signal, attempt, trace);
        this.judge(trace, current, 'ok');
        return res;
      } catch (e) {
        trace.unhold?.();
        const err = isSourceError(e) ? e : toNetworkError(e, step.url, signal);
        const rule = (e as { rule?: string })?.rule;
        let host = '';
        try {
          host = new URL(step.url).host;
        } catch {
          // invalid URL: reported through the error itself
        }
        this.judge(trace, current, err);
        // The account was benched (signed out, expired): at once again, with the next one or none.
        if ((e as { signedOut?: boolean })?.signedOut) {
          attempt--;
          continue;
        }
        const delay = this.retryDelay(err, attempt, signal, deadline);
        this.emit({ type: 'error', kind: step.kind, host, errorType: err.type, message: err.message, rule, attempt, willRetry: delay !== undefined, delayMs: delay });
        if (delay === undefined) throw err;
        // A burnt identity is not worth another try: fresh headers, cookies and proxy.
        // (A pooled identity was retired by its score in `judge`: the next lease is a new one.
        // One whose proxy failed at the network level is retired too: the retry takes another proxy.)
        if (current?.host !== undefined && current.proxy && err.type === 'network') current.retired = true;
        if (current && workKey === undefined && (err.type === 'blocked' || err.type === 'captcha')) session = this.sessions.retire(current);
        trace.warming?.(); // the others sharing this identity need not wait for our retry
        await sleep(delay, signal);
      } finally {
        trace.unhold?.();
        trace.warming?.();
      }
    }
  }

  /** Wait before the next attempt, or undefined when the error goes back to the caller. */
  private retryDelay(err: SourceError, attempt: number, signal: AbortSignal | undefined, deadline: number): number | undefined {
    const s = this.settings;
    if (attempt >= s.retries || signal?.aborted || isFinal(err)) return undefined;
    let retry = false;
    if (err.type === 'network' || err.type === 'rate_limited') retry = true;
    // Blocks and captchas follow the IP: only another proxy can help.
    else if ((err.type === 'blocked' || err.type === 'captcha') && this.proxies.size > 1) retry = true;
    if (!retry) return undefined;
    if (err.retryAfterMs !== undefined && err.retryAfterMs > s.maxRetryAfterMs) return undefined;
    const delay = Math.max(backoffDelay(attempt, s.retryBaseMs, s.retryMaxMs, this.opts.random), err.retryAfterMs ?? 0);
    if (performance.now() + delay >= deadline) return undefined;
    return delay;
  }

  private pickProxy(session: SessionHandle | undefined, host: string): ProxyEntry | undefined {
    if (session?.proxy) return session.proxy;
    // Round robin without a pooled identity: skip proxies benched for this host, unless all are.
    let first: ProxyEntry | undefined;
    for (let i = 0; i < this.proxies.size; i++) {
      const p = this.proxies.next()!;
      first ??= p;
      if (this.health.available(p.label, host)) return p;
    }
    return first;
  }

  /**
   * Feeds one attempt's outcome to pacing, proxy health, the host's tier and the identity's score.
   * A rule marked `soft` (an empty page where content belongs) counts as a soft block.
   */
  private judge(trace: AttemptTrace, session: SessionHandle | undefined, outcome: 'ok' | SourceError): void {
    if (!trace.host) return; // never reached the network (invalid URL, SSRF refusal, replay)
    const type = outcome === 'ok' ? 'ok' : outcome.type;
    const soft = outcome !== 'ok' && (outcome as { soft?: boolean }).soft === true;
    const blocked = type === 'blocked' || type === 'captcha';
    let pace: PaceOutcome = 'error';
    if (type === 'ok') pace = 'ok';
    // A hard block is the IP's verdict (proxy health benches it), not a reason to slow the others.
    else if (soft) pace = 'soft_block';
    else if (type === 'rate_limited') pace = 'rate_limited';
    this.pacer.record(this.paceSlots(trace.host, trace.proxy), trace.ms, pace, outcome === 'ok' ? undefined : outcome.retryAfterMs);
    const p = trace.proxy;
    let tierOutcome: TierOutcome = 'other';
    if (type === 'ok') {
      tierOutcome = 'ok';
      if (p) this.health.ok(p.label, trace.host);
    } else if (blocked && !soft) {
      tierOutcome = 'blocked';
      if (p) this.health.fail(p.label, trace.host, 'blocked');
    } else if (type === 'network' && p && outcome !== 'ok' && !outcome.message.includes('benched')) {
      this.health.fail(p.label, trace.host, 'network');
    }
    if (p) this.tiers.record(trace.host, p.tier, tierOutcome);
    if (session?.host !== undefined) {
      let scored: ScoredError | undefined;
      if (soft) scored = 'soft_block';
      else if (blocked) scored = type as ScoredError;
      else if (type === 'rate_limited') scored = 'rate_limited';
      if (type === 'ok') this.sessions.markGood(session);
      else if (scored) this.sessions.markBad(session, scored);
    }
    this.emit({ type: 'proxy', host: trace.host, tier: p?.tierName, proxy: p?.label, outcome: soft ? 'soft_block' : type });
  }

  private async headersFor(step: Step, session: SessionHandle | undefined, url: string, method: string, account?: SignedInAccount): Promise<Record<string, string>> {
    const h: Record<string, string> = { ...(session?.headers ?? this.anonymousHeaders) };
    if (XHR_EXPECT.has(step.expect)) {
      // What a page's own script sends for a data call, not a navigation.
      h.accept = '*/*';
      h['sec-fetch-dest'] = 'empty';
      h['sec-fetch-mode'] = 'cors';
      delete h['sec-fetch-user'];
      delete h['upgrade-insecure-requests'];
    }
    if (step.headers) for (const [k, v] of Object.entries(step.headers)) h[k.toLowerCase()] = v;
    // Operator credentials of this host (never in the step: steps end up in checkpoints and cursors).
    const cred = credentialFor(this.settings.hostCredentials, url);
    if (cred) for (const [k, v] of Object.entries(cred)) h[k] = k === 'cookie' && h.cookie ? `${h.cookie}; ${v}` : v;
    // A signed-in account's cookies (./signed-in.ts), hop by hop: a redirect elsewhere carries none.
    if (account && this.signedIn.covers(url)) h.cookie = h.cookie ? `${h.cookie}; ${account.cookie}` : account.cookie;
    if (session?.hasCookies) {
      const cookie = await session.jar.getCookieString(url);
      if (cookie) h.cookie = h.cookie ? `${h.cookie}; ${cookie}` : cookie;
    }
    if (method === 'GET') delete h['content-type'];
    return h;
  }

  /**
   * One attempt: every redirect hop under one time limit, which starts when the first hop has its
   * start (the pace slot and the host's place): the limit is on the site's answer, not on the queue
   * for a start. A queue longer than the limit (a cluster whose items wait on a low per-IP rate) would
   * otherwise time out while waiting its turn, retry, and leave its reserved start unused: on a wall
   * of 2 requests/s per IP with 240 items in flight, 2 minutes with nothing sent.
   */
  private async attempt(step: Step, session: SessionHandle | undefined, outer: AbortSignal | undefined, attempt: number, trace: AttemptTrace): Promise<FetchedResponse> {
    const s = this.settings;
    const timeout = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const startClock = () => {
      timer ??= setTimeout(() => timeout.abort(new SourceError('network', `timed out after ${s.timeoutMs} ms: ${step.kind} ${safeHost(step.url)}`)), s.timeoutMs);
    };
    // The caller's abort reaches the attempt through one listener, removed when the attempt ends:
    // about 14 µs cheaper per attempt than AbortSignal.any on Node 20, which also keeps weak
    // references from the caller's signal to every attempt's.
    const onOuter = () => timeout.abort(outer!.reason);
    if (outer?.aborted) onOuter();
    else outer?.addEventListener('abort', onOuter, { once: true });
    const signal = timeout.signal;
    try {
      if (step.browser) {
        startClock();
        return await this.runBrowser(step, signal, attempt, session);
      }
      let proxy: ProxyEntry | undefined;
      let url = step.url;
      let method: string = step.method ?? 'GET';
      let body = step.body;
      for (let hop = 0; hop <= s.maxRedirects; hop++) {
        if (step.userUrl) await checkUrl(url, this.urlCheck);
        let u: URL;
        try {
          u = new URL(url);
        } catch {
          throw new SourceError('invalid_query', `not a valid URL: ${url.slice(0, 200)}`);
        }
        if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new SourceError('forbidden_target', `scheme ${u.protocol} is not http or https`);
        const account = trace.account && this.signedIn.covers(url) ? trace.account : undefined;
        const headers = await this.headersFor(step, session, url, method, account);
        const fingerprint = step.transport === 'node' ? undefined : session ? session.fingerprint : this.anonymousFingerprint;
        const host = hostKey(u);
        // A signed-in account keeps its own proxy (the pool's for its name): one account, one exit.
        proxy ??= (account && this.proxies.size ? this.proxies.forKey(account.label, 0) : undefined) ?? this.pickProxy(session, host);
        let start: PaceStart | undefined;
        if (!this.replaying) {
          trace.unhold?.(); // the start held at the lease becomes a reservation
          const slots = this.paceSlots(host, proxy);
          // A request that opens a connection reaches the site that much later: its place grows by
          // what opening is expected to take (a gap at most), or it lands beside the next start (in
          // a run's first second, with every worker waking at once, opening took 0.2-0.6 s, a gap
          // at 2 requests/s; a few seconds later 7 ms).
          const gap = slots[0]!.minDelayMs;
          const connecting = proxy && gap > 0 ? this.transport.connectDelayMs?.({ url, proxyUrl: proxy.url, fingerprint }) ?? 0 : 0;
          start = await this.pacer.wait(slots, signal, s.maxRetryAfterMs, 1 + Math.min(1, connecting / (gap || 1)));
          // Honour a long Retry-After without holding a worker: the engine retries the item later.
          if (start.paused) throw new SourceError('rate_limited', `rate_limited: ${u.host} asked us to wait (Retry-After), ${Math.ceil(start.paused / 1000)} s left`, { retryAfterMs: Math.ceil(start.paused) });
        }
        let release: () => void;
        try {
          release = await this.limiter.acquire(host, signal);
        } catch (e) {
          start?.done();
          throw e;
        }
        startClock();
        if (session) session.uses++;
        const t0 = performance.now();
        // What `judge` reads: the last hop's host, proxy and time (a redirect's target is what answered).
        if (!this.replaying) {
          trace.host = host;
          trace.proxy = proxy;
        }
        let res: TransportResponse;
        try {
          res = await this.transport.send({ url, method, headers, body, signal, dispatcher: proxy?.dispatcher ?? this.direct,
            maxBytes: Math.min(s.maxResponseBytes, step.maxBytes ?? Infinity), proxyUrl: proxy?.url,
            fingerprint });
        } catch (e) {
          // The operator's proxy address is no user's business, and its failure is not the target's.
          throw proxy ? throughProxy(e, proxy.url, u.host) : e;
        } finally {
          release();
          start?.done();
          trace.ms = performance.now() - t0;
        }
        if (session) session.answered = true;
        trace.warming?.();
        if (session) for (const c of res.setCookie) if (await session.jar.setCookie(c, url, { ignoreError: true })) session.hasCookies = true;
        this.emit({ type: 'request', kind: step.kind, method, host: u.host, status: res.status, ms: performance.now() - t0, bytes: res.bytes, attempt, hop, proxy: proxy?.label, replayed: res.replayed, browser: false });

        const location = REDIRECTS.has(res.status) && res.headers.location ? new URL(res.headers.location, url).href : undefined;
        if (account) {
          const why = signedOutAnswer({ status: res.status, url: location ?? url, body: location ? '' : res.body });
          if (why) {
            this.signedIn.bench(account, why);
            throw Object.assign(new SourceError('login_required', `signed-in identity ${account.label} is signed out: ${why}`), { signedOut: true });
          }
        }
        // The body read only if a rule reads it (an HTML page's text): a JSON answer stays bytes (./lazy-body.ts).
        this.throwIfDetected({ status: res.status, url, headers: res.headers, get body() { return location ? '' : res.body; }, location }, step.answers);
        if (location) {
          if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
            method = 'GET';
            body = undefined;
          }
          url = location;
          continue;
        }
        return bodyFrom({ status: res.status, url, headers: res.headers }, res);
      }
      throw new SourceError('network', `more than ${s.maxRedirects} redirects from ${safeHost(step.url)}`);
    } catch (e) {
      throw isSourceError(e) ? e : toNetworkError(e, step.url, signal);
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuter);
    }
  }

  /**
   * An identity's first request goes alone. Requests that would start beside it wait for its
   * answer before they take a start: sent at once, they would queue behind the connection being
   * opened (a new handshake, maybe a new proxy) and reach the site together when it is up, a
   * burst whatever their paced start times said. Returns the answer to wait for, or undefined:
   * the identity was answered, or this attempt sends its first request (`trace.warming` then lets
   * the others go, once answered or when the attempt ends).
   */
  private firstAlone(session: SessionHandle, trace: AttemptTrace): Promise<void> | undefined {
    if (session.answered || this.replaying) return undefined;
    const pending = this.warmups.get(session);
    if (pending) return pending;
    let open!: () => void;
    this.warmups.set(session, new Promise<void>((resolve) => (open = resolve)));
    trace.warming = () => {
      trace.warming = undefined;
      this.warmups.delete(session);
      open();
    };
    return undefined;
  }

  private throwIfDetected(o: { status: number; url: string; headers: Record<string, string>; body: string; location?: string }, answers?: number[]): void {
    const d = detect(o, this.rules);
    if (!d) return;
    // A status the step's parser reads itself (Step.answers), when only the plain status rule matched.
    if (answers?.includes(o.status) && d.rule === `http-${o.status}`) return;
    const retryAfterMs = d.type === 'rate_limited' ? (parseRetryAfter(o.headers['retry-after']) ?? undefined) : undefined;
    const where = o.location ? `${safeHost(o.url)} → ${safeHost(o.location)}` : safeHost(o.url);
    const err = new SourceError(d.type, `${d.type}: HTTP ${o.status} from ${where} (rule ${d.rule})`, { retryAfterMs });
    Object.defineProperty(err, 'rule', { value: d.rule, enumerable: false });
    if (d.soft) Object.defineProperty(err, 'soft', { value: true, enumerable: false });
    throw err;
  }

  private async runBrowser(step: Step, signal: AbortSignal, attempt: number, session?: SessionHandle): Promise<FetchedResponse> {
    if (step.userUrl) await checkUrl(step.url, this.urlCheck);
    const t0 = performance.now();
    let res: FetchedResponse;
    let bytes: number;
    let replayed = false;
    if (this.replaying) {
      // Recorded browser pages are plain HAR entries: replay needs no Chromium.
      const r = await this.transport.send({ url: step.url, method: 'GET', headers: {}, signal, maxBytes: this.settings.maxResponseBytes });
      res = { status: r.status, url: r.url, headers: r.headers, body: r.body };
      bytes = r.bytes;
      replayed = true;
    } else {
      this.browser ??= new BrowserPool(this.settings, this.guard);
      const started = new Date();
      // The session's own context: its cookies, proxy and a fingerprint that matches its headers.
      res = await this.browser.run(step, signal, {
        key: session ? `${session.key}#${session.generation}` : '',
        headers: session?.headers ?? this.anonymousHeaders,
        fingerprint: session ? session.fingerprint : this.anonymousFingerprint,
        proxyUrl: session?.proxy?.url,
      });
      bytes = Buffer.byteLength(res.body);
      this.recorder?.add(harEntry({ url: step.url, method: 'GET', headers: {} }, { ...res, setCookie: [], bytes, replayed: false }, performance.now() - t0, started, true));
    }
    this.emit({ type: 'request', kind: step.kind, method: 'GET', host: safeHost(res.url), status: res.status, ms: performance.now() - t0, bytes, attempt, hop: 0, replayed, browser: true });
    this.throwIfDetected({ status: res.status, url: res.url, headers: res.headers, body: res.body });
    return res;
  }

  /**
   * Closes connections, the browser and the HAR recorder (writing the final file).
   *
   * @example
   *   await ex.close();
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.offLayout?.();
    for (const off of this.offCluster.splice(0)) off();
    this.tiers.close();
    await Promise.all([
      this.transport.close(),
      this.proxies.close(),
      this.direct.close().catch(() => undefined),
      this.browser?.close(),
    ]);
  }
}

interface AttemptTrace {
  /** The signed-in account this attempt sends as, if any. */
  account?: SignedInAccount;
  host?: string;
  proxy?: ProxyEntry;
  ms: number;
  /** Releases the start held on the leased identity's pacing key. */
  unhold?: () => void;
  /** Set while this attempt sends its identity's first request: lets the others go. */
  warming?: () => void;
}

/** `p`, or the signal's reason if it aborts first. */
async function untilAborted(p: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return p;
  if (signal.aborted) throw signal.reason;
  let onAbort!: () => void;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([p, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url.slice(0, 100);
  }
}
