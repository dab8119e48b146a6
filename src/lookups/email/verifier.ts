/**
 * The shared machinery of the e-mail checks for one set of settings: resolver, per-domain session
 * limit, catch-all cache, and an SMTP probe that walks the mail exchangers by priority.
 */
import { randomBytes } from 'node:crypto';
import { addressRefusal, type GuardOptions } from '../../fetch/ssrf.ts';
import { MailDns, type MailRoute, type MxHost } from './dns.ts';
import { KeyedLimiter } from './limiter.ts';
import { smtpSession, type RcptAnswer, type SessionResult } from './smtp.ts';
import { resolveEmailSettings, type EmailSettings } from './settings.ts';
import { TtlCache } from './ttl-cache.ts';

export interface ProbeRequest {
  domain: string;
  hosts: MxHost[];
  rcpts: string[];
  continueAfter?: (answer: RcptAnswer) => boolean;
  smtputf8?: boolean;
  signal?: AbortSignal;
}

export interface ProbeOutcome {
  /** The session that got past the greeting, or null when no exchanger could be reached. */
  session: SessionResult | null;
  /** Mail host of that session. */
  host: string | null;
  /** Why each earlier exchanger was skipped ('mx1.example.com: ECONNREFUSED'). */
  skipped: string[];
}

/** At most this many addresses per exchanger (IPv4 first) are tried. */
const ADDRESSES_PER_HOST = 2;

/**
 * @example
 *   const v = new EmailVerifier({ smtpPort: 2525, dnsServers: ['127.0.0.1:5353'] });
 *   const route = await v.route('example.test');
 */
export class EmailVerifier {
  readonly settings: EmailSettings;
  readonly dns: MailDns;
  readonly limiter: KeyedLimiter;
  private readonly catchAll: TtlCache<boolean>;
  private readonly guard: GuardOptions;

  constructor(settings: Partial<EmailSettings> | Record<string, unknown> = {}) {
    this.settings = resolveEmailSettings(settings as Record<string, unknown>);
    this.dns = new MailDns({
      servers: this.settings.dnsServers,
      timeoutMs: this.settings.dnsTimeoutMs,
      cacheTtlMs: this.settings.cacheTtlMs,
      mustExist: this.settings.dnsMustExist,
    });
    this.limiter = new KeyedLimiter(this.settings.perDomainConcurrency);
    this.catchAll = new TtlCache(this.settings.cacheTtlMs);
    this.guard = { allowPrivate: this.settings.allowPrivateTargets, allow: this.settings.allowedTargets };
  }

  /** @example await v.route('example.com') // { kind: 'mx', hosts: [...] } */
  route(domain: string): Promise<MailRoute> {
    return this.dns.route(domain);
  }

  /** Cached catch-all answer for a domain: true, false, or undefined when not known yet. */
  knownCatchAll(domain: string): boolean | undefined {
    return this.catchAll.get(domain);
  }

  /** @example v.rememberCatchAll('example.com', false) */
  rememberCatchAll(domain: string, value: boolean): void {
    this.catchAll.set(domain, value);
  }

  /**
   * A local part no one has: the probe address for catch-all detection.
   * @example v.randomAddress('example.com') // 'qzhvtkwpbmxrdc@example.com'
   */
  randomAddress(domain: string): string {
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    const bytes = randomBytes(14);
    let local = '';
    for (const b of bytes) local += letters[b % 26];
    return `${local}@${domain}`;
  }

  /**
   * One SMTP session for `domain`, holding a per-domain slot; exchangers that cannot be reached or do
   * not greet us (connection refused, timeout, 421/554 banner) are skipped for the next by priority.
   * @example await v.probe({ domain: 'example.com', hosts, rcpts: ['jane@example.com'] })
   */
  async probe(req: ProbeRequest): Promise<ProbeOutcome> {
    const release = await this.limiter.acquire(req.domain, req.signal);
    const skipped: string[] = [];
    try {
      for (const host of req.hosts.slice(0, this.settings.maxMxHosts)) {
        let ips: string[];
        try {
          ips = await this.dns.hostAddresses(host.exchange);
        } catch (e) {
          skipped.push(`${host.exchange}: address lookup failed (${(e as { code?: string }).code ?? 'error'})`);
          continue;
        }
        if (ips.length === 0) {
          skipped.push(`${host.exchange}: no address record`);
          continue;
        }
        // The SSRF rule of every other target: an MX (or implicit MX, or IP literal MX) pointing at
        // loopback, private or metadata addresses would make the probe an internal port scanner.
        // The record says only that the host is not allowed, never the address it resolved to.
        const refused = ips.filter((ip) => addressRefusal(ip, this.guard, host.exchange) !== undefined);
        if (refused.length) {
          skipped.push(`${host.exchange}: not an allowed target`);
          continue;
        }
        for (const ip of ips.slice(0, ADDRESSES_PER_HOST)) {
          if (req.signal?.aborted) return { session: null, host: null, skipped: [...skipped, 'aborted'] };
          const session = await smtpSession({
            host: ip,
            port: this.settings.smtpPort,
            heloName: this.settings.heloName,
            mailFrom: this.settings.mailFrom,
            rcpts: req.rcpts,
            timeoutMs: this.settings.smtpTimeoutMs,
            continueAfter: req.continueAfter,
            smtputf8: req.smtputf8,
            signal: req.signal,
          });
          if (session.greeted || session.failure?.kind === 'aborted') return { session, host: host.exchange, skipped };
          const f = session.failure;
          const why = f?.kind === 'connect' ? (f.code ?? f.message) : (f?.message ?? 'no greeting');
          // The user is told the exchanger's name only, never the address it resolved to (that would
          // map the operator's DNS, issue 28); one line per exchanger.
          const line = `${host.exchange}: ${why}`;
          if (!skipped.includes(line)) skipped.push(line);
        }
      }
      return { session: null, host: null, skipped };
    } finally {
      release();
    }
  }

  /**
   * status_details text for "no exchanger could be reached": on port 25 that is most often an
   * outbound block of the network we run in, which says nothing about the address.
   * @example v.unreachableDetail(['mx1.example.com: ETIMEDOUT'])
   */
  unreachableDetail(skipped: string[]): string {
    const port = this.settings.smtpPort;
    const list = skipped.slice(0, 3).join('; ') + (skipped.length > 3 ? `; +${skipped.length - 3} more` : '');
    const hint =
      port === 25
        ? '; outbound connections to port 25 may be blocked on this network, so the mailbox could not be checked'
        : '';
    return `could not reach any mail server on port ${port} (${list})${hint}`;
  }
}

const registry = new Map<string, EmailVerifier>();
const REGISTRY_MAX = 16;

/**
 * The verifier for a settings bag, shared across calls so caches and per-domain limits hold
 * process-wide for the same settings.
 * @example verifierFor(ctx.settings).route('example.com')
 */
export function verifierFor(settings: Record<string, unknown> | undefined | null): EmailVerifier {
  const resolved = resolveEmailSettings(settings);
  const key = JSON.stringify(resolved);
  let v = registry.get(key);
  if (!v) {
    v = new EmailVerifier(resolved as unknown as Record<string, unknown>);
    registry.set(key, v);
    if (registry.size > REGISTRY_MAX) {
      const oldest = registry.keys().next().value;
      if (oldest !== undefined) registry.delete(oldest);
    }
  }
  return v;
}
