/**
 * SSRF guard for every URL a user hands us (map links, website links, webhook URLs).
 *
 * Two layers, because one is not enough:
 * 1. `checkUrl` before each request and each redirect hop: scheme, credentials, IP-literal hosts in
 *    any spelling, and every address the name resolves to.
 * 2. `guardedAgent` / `guardedLookup` at connect time: the address the socket actually connects to
 *    is checked again, so a name that resolves to a public address during the check and to
 *    127.0.0.1 a moment later (DNS rebinding) is still refused.
 *
 * Behind a proxy, the proxy resolves the name; only layer 1 applies then (see docs/executor.md).
 */
import dns from 'node:dns';
import net from 'node:net';
import { Agent, buildConnector } from 'undici';
import { SourceError } from '../sources/_kit/errors.ts';
import { inPrefix, parseCidr, parseIPv4, parseIPv6, type Cidr } from './ip.ts';
import { finalIfNoSuchName } from './retry.ts';

const cidr = (text: string): Cidr => parseCidr(text)!;

/** IPv4 ranges that are never a public web server. */
const FORBIDDEN_V4: Array<[Cidr, string]> = [
  [cidr('0.0.0.0/8'), 'this-network'],
  [cidr('10.0.0.0/8'), 'private'],
  [cidr('100.64.0.0/10'), 'carrier-grade NAT'],
  [cidr('127.0.0.0/8'), 'loopback'],
  [cidr('169.254.0.0/16'), 'link-local / cloud metadata'],
  [cidr('172.16.0.0/12'), 'private'],
  [cidr('192.0.0.0/24'), 'IETF protocol assignments'],
  [cidr('192.0.2.0/24'), 'documentation'],
  [cidr('192.88.99.0/24'), '6to4 relay anycast'],
  [cidr('192.168.0.0/16'), 'private'],
  [cidr('198.18.0.0/15'), 'benchmarking'],
  [cidr('198.51.100.0/24'), 'documentation'],
  [cidr('203.0.113.0/24'), 'documentation'],
  [cidr('224.0.0.0/4'), 'multicast'],
  [cidr('240.0.0.0/4'), 'reserved / broadcast'],
];

/** IPv6 ranges refused outright (embedded-IPv4 forms are handled separately). */
const FORBIDDEN_V6: Array<[Cidr, string]> = [
  [cidr('::/128'), 'unspecified'],
  [cidr('::1/128'), 'loopback'],
  [cidr('::/96'), 'IPv4-compatible (deprecated)'],
  [cidr('64:ff9b:1::/48'), 'local-use NAT64'],
  [cidr('100::/64'), 'discard-only'],
  [cidr('2001::/32'), 'Teredo (embeds an obfuscated IPv4)'],
  [cidr('2001:db8::/32'), 'documentation'],
  [cidr('fc00::/7'), 'unique local (private)'],
  [cidr('fe80::/10'), 'link-local'],
  [cidr('fec0::/10'), 'site-local (deprecated)'],
  [cidr('ff00::/8'), 'multicast'],
];

/** IPv6 prefixes that carry an IPv4 address; the IPv4 part decides. [prefix, offset of the IPv4 bytes]. */
const EMBEDS_V4: Array<[Cidr, number]> = [
  [cidr('::ffff:0:0/96'), 12], // IPv4-mapped
  [cidr('::ffff:0:0:0/96'), 12], // IPv4-translated (SIIT)
  [cidr('64:ff9b::/96'), 12], // NAT64 well-known prefix
  [cidr('2002::/16'), 2], // 6to4
];

function v4Reason(b: number[]): string | undefined {
  for (const [c, why] of FORBIDDEN_V4) if (inPrefix(b, c.bytes, c.bits)) return why;
  return undefined;
}

/**
 * Why an address is refused, or undefined when it is a public unicast address. Input that is not
 * an IP address at all is refused ('not an IP address'): the guard fails closed.
 *
 * @example
 *   forbiddenReason('169.254.169.254') // 'link-local / cloud metadata'
 *   forbiddenReason('8.8.8.8') // undefined
 */
export function forbiddenReason(ip: string): string | undefined {
  const text = ip.trim();
  const b4 = /^[0-9a-fA-FxX.]+$/.test(text) && !text.includes(':') ? parseIPv4(text) : undefined;
  if (b4) return v4Reason(b4);
  const b6 = parseIPv6(text);
  if (!b6) return 'not an IP address';
  for (const [c, why] of FORBIDDEN_V6) if (inPrefix(b6, c.bytes, c.bits)) return why;
  for (const [c, off] of EMBEDS_V4) {
    if (!inPrefix(b6, c.bytes, c.bits)) continue;
    const why = v4Reason(b6.slice(off, off + 4));
    if (why) return `${why} (IPv4 embedded in IPv6)`;
  }
  return undefined;
}

/**
 * True when connecting to `ip` could reach something inside the operator's network: loopback,
 * private, link-local (cloud metadata), CGNAT, 0.0.0.0/8, multicast, reserved, documentation,
 * and the same inside IPv4-mapped/compatible/NAT64/6to4 IPv6 forms. Accepts the lenient IPv4
 * spellings (`2130706433`, `0x7f.1`, `0177.0.0.1`). Non-IP input → true (fail closed).
 *
 * @example
 *   isForbiddenAddress('::ffff:10.0.0.1') // true
 *   isForbiddenAddress('142.250.74.46') // false
 */
export function isForbiddenAddress(ip: string): boolean {
  return forbiddenReason(ip) !== undefined;
}

/** Resolver signature (dns.promises.lookup with `all: true`), injectable for tests. */
export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export interface GuardOptions {
  /** Operator switch (ALLOW_PRIVATE_TARGETS=true): skip the address checks entirely. */
  allowPrivate?: boolean;
  /** Addresses, CIDRs or exact host names allowed even though private (e.g. an internal geocoder). */
  allow?: string[];
  /** Allow `user:pass@` in the URL (webhook receivers with basic auth). Default false. */
  allowCredentials?: boolean;
  /** Resolve names and check every address (default true). Replay mode turns it off: no network. */
  resolve?: boolean;
  resolver?: Resolver;
}

const defaultResolver: Resolver = (host) => dns.promises.lookup(host, { all: true, verbatim: true });

/** Compiled allow list: exact names plus CIDRs. */
interface AllowList {
  names: Set<string>;
  cidrs: Cidr[];
}
const allowCache = new WeakMap<string[], AllowList>();
function compileAllow(allow: string[] | undefined): AllowList {
  if (!allow || allow.length === 0) return { names: new Set(), cidrs: [] };
  const hit = allowCache.get(allow);
  if (hit) return hit;
  const out: AllowList = { names: new Set(), cidrs: [] };
  for (const raw of allow) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    const c = parseCidr(entry);
    if (c) out.cidrs.push(c);
    else out.names.add(entry.replace(/^\[|\]$/g, ''));
  }
  allowCache.set(allow, out);
  return out;
}

function allowedAddress(ip: string, list: AllowList): boolean {
  if (list.cidrs.length === 0) return false;
  const b4 = ip.includes(':') ? undefined : parseIPv4(ip);
  const b6 = b4 ? undefined : parseIPv6(ip);
  for (const c of list.cidrs) {
    if (b4 && c.v === 4 && inPrefix(b4, c.bytes, c.bits)) return true;
    if (b6 && c.v === 6 && inPrefix(b6, c.bytes, c.bits)) return true;
    // An IPv4-mapped IPv6 address matches an IPv4 rule.
    if (b6 && c.v === 4 && inPrefix(b6, EMBEDS_V4[0][0].bytes, 96) && inPrefix(b6.slice(12), c.bytes, c.bits)) return true;
  }
  return false;
}

/**
 * Why connecting to `ip` is refused under `opts` (allowPrivate, allow list), or undefined when it
 * may be connected to; `host`, the name it came from, may be on the allow list by name. For callers
 * that connect to addresses they resolved themselves (SMTP probes).
 *
 * @example
 *   addressRefusal('127.0.0.1', {}) // 'loopback'
 *   addressRefusal('127.0.0.1', { allow: ['127.0.0.0/8'] }) // undefined
 */
export function addressRefusal(ip: string, opts: GuardOptions = {}, host?: string): string | undefined {
  if (opts.allowPrivate) return undefined;
  const list = compileAllow(opts.allow);
  if (host !== undefined && list.names.has(host.toLowerCase())) return undefined;
  const why = forbiddenReason(ip);
  return why && !allowedAddress(ip, list) ? why : undefined;
}

/**
 * Throws forbidden_target unless `ip` is public or explicitly allowed. The message names only what
 * the user wrote: for a name, how it resolved stays in `detail` (logs), so the guard cannot be used
 * to map the operator's DNS (`refused target vm (127.0.0.1)` would tell that `vm` is this machine).
 */
function assertAddress(ip: string, host: string, opts: GuardOptions, list: AllowList): void {
  if (opts.allowPrivate) return;
  const why = forbiddenReason(ip);
  if (why && !allowedAddress(ip, list)) {
    const detail = `refused target ${host === ip ? ip : `${host} (${ip})`}: ${why} address`;
    if (host === ip) throw new SourceError('forbidden_target', detail, { detail });
    throw new SourceError('forbidden_target', `refused target ${host}: not an allowed target`, { detail });
  }
}

/** Names that mean "this machine" without DNS being asked. */
function isLocalName(host: string): boolean {
  const h = host.replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === 'localhost.localdomain';
}

/** Host as written in the URL, brackets removed for IPv6. */
function bareHost(u: URL): string {
  return u.hostname.replace(/^\[|\]$/g, '').toLowerCase();
}

/**
 * Throws `SourceError('forbidden_target')` unless `url` is an http(s) URL whose host (and every
 * address it resolves to) is a public unicast address. A name that does not resolve is a
 * `SourceError('network')`. Call it for the first URL and for each redirect hop.
 *
 * @example
 *   await checkUrl('https://example.com/menu');             // ok
 *   await checkUrl('http://169.254.169.254/latest/meta-data'); // throws forbidden_target
 *   await checkUrl('http://10.0.0.5/', { allowPrivate: true }); // ok: operator allowed it
 */
export async function checkUrl(url: string | URL, opts: GuardOptions = {}): Promise<void> {
  let u: URL;
  try {
    u = typeof url === 'string' ? new URL(url) : url;
  } catch {
    throw new SourceError('forbidden_target', `refused target: not a valid URL: ${String(url).slice(0, 200)}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new SourceError('forbidden_target', `refused target: scheme ${u.protocol} is not http or https`);
  }
  if ((u.username || u.password) && !opts.allowCredentials) {
    throw new SourceError('forbidden_target', 'refused target: credentials in the URL are not accepted');
  }
  if (opts.allowPrivate) return;
  const host = bareHost(u);
  if (!host) throw new SourceError('forbidden_target', 'refused target: empty host');
  const list = compileAllow(opts.allow);
  if (list.names.has(host)) return;
  // The WHATWG parser already turned decimal/octal/hex IPv4 spellings into dotted quads.
  if (net.isIP(host)) return assertAddress(host, host, opts, list);
  if (isLocalName(host)) {
    if (allowedAddress('127.0.0.1', list)) return;
    throw new SourceError('forbidden_target', `refused target ${host}: loopback name`);
  }
  if (opts.resolve === false) return;
  let addrs: Array<{ address: string }>;
  try {
    addrs = await (opts.resolver ?? defaultResolver)(host);
  } catch (e) {
    throw finalIfNoSuchName(new SourceError('network', `DNS lookup failed for ${host}: ${(e as Error).message}`, { cause: e }));
  }
  if (addrs.length === 0) throw new SourceError('network', `DNS lookup for ${host} returned no address`);
  // Every address: a name with one public and one private address must not slip through.
  for (const a of addrs) assertAddress(a.address, host, opts, list);
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `net.connect` (and undici's `connect.lookup`) that refuses forbidden addresses:
 * the connect-time half of the guard.
 *
 * @example
 *   net.connect({ host: 'example.com', port: 80, lookup: guardedLookup({}) });
 */
export function guardedLookup(opts: GuardOptions = {}) {
  const list = compileAllow(opts.allow);
  return function lookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const host = hostname.toLowerCase();
      if (!list.names.has(host)) {
        for (const a of addresses) {
          try {
            assertAddress(a.address, host, opts, list);
          } catch (e) {
            return callback(e as NodeJS.ErrnoException, []);
          }
        }
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), []);
      callback(null, first.address, first.family);
    });
  };
}

/**
 * An undici connector that checks IP-literal hosts before connecting, resolves names through
 * `guardedLookup`, and re-checks the socket's remote address once connected.
 *
 * @example
 *   new Agent({ connect: guardedConnector({}) });
 */
export function guardedConnector(opts: GuardOptions = {}, tls: buildConnector.BuildOptions = {}): buildConnector.connector {
  const list = compileAllow(opts.allow);
  const inner = buildConnector({ ...tls, lookup: guardedLookup(opts) } as buildConnector.BuildOptions);
  return (options, callback) => {
    const host = options.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    const named = list.names.has(host);
    if (!named && net.isIP(host)) {
      try {
        assertAddress(host, host, opts, list);
      } catch (e) {
        return callback(e as Error, null);
      }
    }
    inner(options, (err, socket) => {
      if (err || !socket) return callback(err ?? new Error('connect failed'), null);
      const remote = (socket as net.Socket).remoteAddress;
      if (!named && remote) {
        try {
          assertAddress(remote, host, opts, list);
        } catch (e) {
          socket.destroy();
          return callback(e as Error, null);
        }
      }
      callback(null, socket);
    });
  };
}

/**
 * An undici Agent whose every connection passes the guard; redirects, keep-alive reconnects and
 * DNS rebinding included. Use it for the webhook sender and for direct (unproxied) source traffic.
 *
 * @example
 *   const agent = guardedAgent({ allowPrivate: false });
 *   await undici.request(url, { dispatcher: agent });
 */
export function guardedAgent(opts: GuardOptions = {}, agentOpts: Agent.Options = {}): Agent {
  return new Agent({ ...agentOpts, connect: guardedConnector(opts) });
}
