/**
 * Where mail for a domain goes, by the rules of RFC 5321 §5.1 and RFC 7505, through a resolver whose
 * servers and timeout are settings (so tests can use a loopback DNS server).
 */
import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import { TtlCache } from './ttl-cache.ts';
import { setHealthNote } from '../../ops/health-notes.ts';

export interface MxHost {
  exchange: string;
  priority: number;
}

export type MailRoute =
  /** MX records, best (lowest) priority first. */
  | { kind: 'mx'; hosts: MxHost[] }
  /** No MX but an A/AAAA record: the domain itself is the implicit MX (RFC 5321 §5.1). */
  | { kind: 'implicit'; hosts: MxHost[] }
  /** The single MX "." (RFC 7505): the domain says it accepts no mail. */
  | { kind: 'null_mx' }
  /** The domain does not exist. */
  | { kind: 'nxdomain' }
  /** The domain exists but has neither MX nor address records. */
  | { kind: 'no_mail_host' }
  /** DNS did not answer usefully (timeout, SERVFAIL, refused): nothing can be concluded. */
  | { kind: 'dns_error'; code: string }
  /** The resolver said NXDOMAIN, but it says so of names that must exist too: its word is worth nothing. */
  | { kind: 'untrusted_resolver'; detail: string };

export interface MailDnsOptions {
  servers: string[] | null;
  timeoutMs: number;
  cacheTtlMs: number;
  /** Names that must exist, asked before an NXDOMAIN is believed (default MUST_EXIST). */
  mustExist?: readonly string[];
}

/**
 * Names that exist as long as the Internet does, each run by another operator: a resolver that calls
 * all of them NXDOMAIN (a machine with no working DNS, a captive or filtering resolver) is not
 * believed when it calls a mail domain NXDOMAIN.
 */
export const MUST_EXIST: readonly string[] = ['gmail.com', 'outlook.com', 'iana.org'];

/** The reason an NXDOMAIN was not believed; its text starts every such verdict. */
export const UNTRUSTED_RESOLVER = 'DNS resolver answers NXDOMAIN for every name';

/** The reason when the names that must exist got no answer at all (time-outs): no better. */
export const UNCONFIRMED_RESOLVER = 'DNS resolver resolves no name that must exist, so its NXDOMAIN is not believed';

/** How long the resolver's check is reused: a good one long, a failed one briefly (DNS may come back). */
const TRUSTED_MS = 10 * 60_000;
const DISTRUSTED_MS = 30_000;

/** Codes that mean "no such records" rather than "could not find out". */
const NO_DATA = new Set(['ENODATA', 'ENOTFOUND']);

function codeOf(e: unknown): string {
  return (e as { code?: string })?.code ?? 'EUNKNOWN';
}

/**
 * MX and address lookups with per-domain caching (failures of DNS itself are not cached).
 * @example
 *   const dns = new MailDns({ servers: ['127.0.0.1:5353'], timeoutMs: 2000, cacheTtlMs: 60000 });
 *   await dns.route('example.com') // { kind: 'mx', hosts: [{ exchange: 'mx1.example.com', priority: 10 }] }
 */
export class MailDns {
  private readonly resolver: Resolver;
  private readonly routes: TtlCache<Promise<MailRoute>>;
  private readonly addrs: TtlCache<Promise<string[]>>;
  private readonly guardMs: number;
  private readonly mustExist: readonly string[];
  private trust: { until: number; why: Promise<string | null> } | null = null;

  constructor(opts: MailDnsOptions) {
    this.mustExist = opts.mustExist ?? MUST_EXIST;
    this.resolver = new Resolver({ timeout: opts.timeoutMs, tries: 1 });
    if (opts.servers) this.resolver.setServers(opts.servers);
    this.routes = new TtlCache(opts.cacheTtlMs);
    this.addrs = new TtlCache(opts.cacheTtlMs);
    // c-ares tries each server in turn; our own guard stops a query that outlives all of them.
    this.guardMs = opts.timeoutMs * Math.max(1, this.resolver.getServers().length) + 500;
  }

  private guarded<T>(p: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const guard = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error('DNS guard timeout'), { code: 'ETIMEOUT' })), this.guardMs);
    });
    return Promise.race([p, guard]).finally(() => clearTimeout(timer));
  }

  /**
   * How mail for `domain` (ASCII) is routed.
   * @example await dns.route('nullmx.example') // { kind: 'null_mx' }
   */
  route(domain: string): Promise<MailRoute> {
    const key = domain.toLowerCase();
    const hit = this.routes.get(key);
    if (hit) return hit;
    const p = this.lookupRoute(key);
    this.routes.set(key, p);
    // A DNS failure says nothing about the domain: let the next query ask again.
    void p.then((r) => (r.kind === 'dns_error' || r.kind === 'untrusted_resolver') && this.routes.delete(key));
    return p;
  }

  private async lookupRoute(domain: string): Promise<MailRoute> {
    try {
      const mx = await this.guarded(this.resolver.resolveMx(domain));
      const real = mx.filter((m) => m.exchange !== '' && m.exchange !== '.');
      // RFC 7505: a null MX is the only MX of its domain; one mixed with real MXs is ignored.
      if (real.length === 0) return mx.length > 0 ? { kind: 'null_mx' } : this.implicitRoute(domain);
      const hosts = real
        .map((m) => ({ exchange: m.exchange.replace(/\.$/, '').toLowerCase(), priority: m.priority }))
        .sort((a, b) => a.priority - b.priority);
      return { kind: 'mx', hosts };
    } catch (e) {
      const code = codeOf(e);
      if (code === 'ENOTFOUND') return this.nxdomain();
      if (code === 'ENODATA') return this.implicitRoute(domain);
      return { kind: 'dns_error', code };
    }
  }

  private async implicitRoute(domain: string): Promise<MailRoute> {
    try {
      const a = await this.hostAddresses(domain);
      return a.length ? { kind: 'implicit', hosts: [{ exchange: domain, priority: 0 }] } : { kind: 'no_mail_host' };
    } catch (e) {
      const code = codeOf(e);
      if (code === 'ENOTFOUND') return this.nxdomain();
      return { kind: 'dns_error', code };
    }
  }

  /** NXDOMAIN, once the resolver has shown it resolves names that exist. */
  private async nxdomain(): Promise<MailRoute> {
    const why = await this.distrust();
    // Every NXDOMAIN says again what the process knows (a cached check included).
    setHealthNote('email_dns', why && `e-mail checks answer UNKNOWN: ${why}`);
    return why ? { kind: 'untrusted_resolver', detail: why } : { kind: 'nxdomain' };
  }

  /**
   * Null when the resolver resolves at least one of the names that must exist; else why its
   * NXDOMAIN is not believed. Asked only after an NXDOMAIN, shared by concurrent callers, cached.
   * @example await dns.distrust() // 'DNS resolver answers NXDOMAIN for every name (gmail.com, outlook.com, iana.org)'
   */
  distrust(now = Date.now()): Promise<string | null> {
    if (this.trust && now < this.trust.until) return this.trust.why;
    const why = this.checkResolver();
    this.trust = { until: now + TRUSTED_MS, why };
    void why.then((w) => { if (w && this.trust?.why === why) this.trust.until = now + DISTRUSTED_MS; });
    return why;
  }

  private async checkResolver(): Promise<string | null> {
    const answers = await Promise.all(this.mustExist.map(async (name) => {
      try {
        const mx = await this.guarded(this.resolver.resolveMx(name));
        return mx.length ? 'ok' : 'ENODATA';
      } catch (e) {
        const code = codeOf(e);
        // ENODATA: the name exists (no MX). Anything but NXDOMAIN shows the resolver is no liar.
        return code === 'ENODATA' ? 'ok' : code;
      }
    }));
    const names = this.mustExist.join(', ');
    const why = answers.includes('ok') ? null
      : answers.every((a) => a === 'ENOTFOUND') ? `${UNTRUSTED_RESOLVER} (${names} too)`
        : `${UNCONFIRMED_RESOLVER} (${names}: ${[...new Set(answers)].join(', ')})`;
    return why;
  }

  /**
   * IPv4 then IPv6 addresses of a mail host; [] when it has none. Throws (with `code`) only when DNS
   * itself fails. An IP literal is returned as is.
   * @example await dns.hostAddresses('mx1.example.com') // ['192.0.2.10']
   */
  hostAddresses(host: string): Promise<string[]> {
    if (isIP(host)) return Promise.resolve([host]);
    const key = host.toLowerCase();
    const hit = this.addrs.get(key);
    if (hit) return hit;
    const p = this.lookupAddresses(key);
    this.addrs.set(key, p);
    p.catch(() => this.addrs.delete(key));
    return p;
  }

  private async lookupAddresses(host: string): Promise<string[]> {
    const out: string[] = [];
    let nx = false;
    for (const family of [4, 6] as const) {
      try {
        const list = await this.guarded(family === 4 ? this.resolver.resolve4(host) : this.resolver.resolve6(host));
        out.push(...list);
      } catch (e) {
        const code = codeOf(e);
        if (!NO_DATA.has(code)) {
          if (out.length) break;
          throw e;
        }
        if (code === 'ENOTFOUND') nx = true;
        // NXDOMAIN for A means NXDOMAIN for AAAA too.
        if (nx) break;
      }
    }
    if (out.length === 0 && nx) throw Object.assign(new Error(`${host} does not exist`), { code: 'ENOTFOUND' });
    return out;
  }

  /** Stops queries in flight (on shutdown). */
  cancel(): void {
    this.resolver.cancel();
  }
}
