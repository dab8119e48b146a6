/**
 * Settings of the e-mail checks. They arrive through `LookupContext.settings` (flat keys) so the
 * server configuration, and tests, can point DNS and SMTP at other peers (e.g. loopback).
 */
import { hostname } from 'node:os';
import { MUST_EXIST } from './dns.ts';

export interface EmailSettings {
  /** Resolver addresses ('1.1.1.1', '127.0.0.1:5353', '[::1]:53'); null uses the system's resolvers. */
  dnsServers: string[] | null;
  /** Names that must exist, resolved before an NXDOMAIN is believed (dns.ts MUST_EXIST). */
  dnsMustExist: readonly string[];
  /** Time allowed per DNS query (per server tried). */
  dnsTimeoutMs: number;
  /** Port of the mail exchangers; 25 in production, a loopback port in tests. */
  smtpPort: number;
  /** Time allowed for each SMTP step: connect, banner, EHLO, MAIL FROM, each RCPT TO. */
  smtpTimeoutMs: number;
  /** Name sent in EHLO; should be this host's public name (its PTR record) or many servers refuse. */
  heloName: string;
  /** Envelope sender of the probes; '' sends the null sender `MAIL FROM:<>`. */
  mailFrom: string;
  /** At most this many SMTP sessions at once per mail domain (servers throttle and blocklist floods). */
  perDomainConcurrency: number;
  /** How long MX, address and catch-all answers are reused. */
  cacheTtlMs: number;
  /** At most this many mail exchangers are tried, by priority, when connections fail. */
  maxMxHosts: number;
  /** Whether SMTP is probed at all; false stops after DNS (status UNKNOWN for deliverable domains). */
  smtpProbe: boolean;
  /** Mail hosts may be private/loopback/link-local addresses (ALLOW_PRIVATE_TARGETS=true; tests). */
  allowPrivateTargets: boolean;
  /** CIDRs or host names allowed even though private (ALLOW_PRIVATE_TARGETS=<list>). */
  allowedTargets: string[];
}

/** Defaults for production. */
export const DEFAULT_EMAIL_SETTINGS: Readonly<EmailSettings> = Object.freeze({
  dnsServers: null,
  dnsMustExist: MUST_EXIST,
  dnsTimeoutMs: 5000,
  smtpPort: 25,
  smtpTimeoutMs: 10000,
  heloName: hostname().replace(/[^A-Za-z0-9.-]/g, '-').slice(0, 253) || 'localhost',
  mailFrom: '',
  perDomainConcurrency: 2,
  cacheTtlMs: 10 * 60 * 1000,
  maxMxHosts: 3,
  smtpProbe: true,
  allowPrivateTargets: false,
  allowedTargets: [],
});

function positiveInt(key: string, v: unknown, max: number): number {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > max) {
    throw new TypeError(`email setting ${key} must be an integer from 1 to ${max}, got ${JSON.stringify(v)}`);
  }
  return n;
}

function nonNegativeInt(key: string, v: unknown, max: number): number {
  return v === 0 || v === '0' ? 0 : positiveInt(key, v, max);
}

/**
 * Settings with defaults filled in from a `LookupContext.settings` bag; unknown keys are ignored,
 * a present but wrong value is a TypeError naming the key.
 * @example resolveEmailSettings({ dnsServers: ['127.0.0.1:5353'], smtpPort: 2525 }).smtpTimeoutMs // 10000
 */
export function resolveEmailSettings(raw: Record<string, unknown> | undefined | null): EmailSettings {
  const r = raw ?? {};
  const s: EmailSettings = { ...DEFAULT_EMAIL_SETTINGS };
  if (r.dnsServers !== undefined && r.dnsServers !== null) {
    const list = typeof r.dnsServers === 'string' ? r.dnsServers.split(',').map((x) => x.trim()) : r.dnsServers;
    if (!Array.isArray(list) || list.length === 0 || !list.every((x) => typeof x === 'string' && x !== '')) {
      throw new TypeError(`email setting dnsServers must be a non-empty list of addresses, got ${JSON.stringify(r.dnsServers)}`);
    }
    s.dnsServers = [...list] as string[];
  }
  if (r.dnsMustExist !== undefined) {
    const list = typeof r.dnsMustExist === 'string' ? r.dnsMustExist.split(',').map((x) => x.trim()) : r.dnsMustExist;
    if (!Array.isArray(list) || list.length === 0 || !list.every((x) => typeof x === 'string' && /^[A-Za-z0-9.-]{1,253}$/.test(x))) {
      throw new TypeError(`email setting dnsMustExist must be a non-empty list of host names, got ${JSON.stringify(r.dnsMustExist)}`);
    }
    s.dnsMustExist = [...list] as string[];
  }
  if (r.dnsTimeoutMs !== undefined) s.dnsTimeoutMs = positiveInt('dnsTimeoutMs', r.dnsTimeoutMs, 120_000);
  if (r.smtpPort !== undefined) s.smtpPort = positiveInt('smtpPort', r.smtpPort, 65_535);
  if (r.smtpTimeoutMs !== undefined) s.smtpTimeoutMs = positiveInt('smtpTimeoutMs', r.smtpTimeoutMs, 600_000);
  if (r.heloName !== undefined) {
    if (typeof r.heloName !== 'string' || !/^[A-Za-z0-9.-]{1,253}$/.test(r.heloName)) {
      throw new TypeError(`email setting heloName must be a host name, got ${JSON.stringify(r.heloName)}`);
    }
    s.heloName = r.heloName;
  }
  if (r.mailFrom !== undefined) {
    // Angle brackets, spaces and CR/LF would break or inject into the SMTP command line.
    if (typeof r.mailFrom !== 'string' || !/^(?:[^\s<>@]+@[A-Za-z0-9.-]+)?$/.test(r.mailFrom)) {
      throw new TypeError(`email setting mailFrom must be '' or a plain address, got ${JSON.stringify(r.mailFrom)}`);
    }
    s.mailFrom = r.mailFrom;
  }
  if (r.perDomainConcurrency !== undefined) {
    s.perDomainConcurrency = positiveInt('perDomainConcurrency', r.perDomainConcurrency, 1000);
  }
  if (r.cacheTtlMs !== undefined) s.cacheTtlMs = nonNegativeInt('cacheTtlMs', r.cacheTtlMs, 7 * 24 * 3600_000);
  if (r.maxMxHosts !== undefined) s.maxMxHosts = positiveInt('maxMxHosts', r.maxMxHosts, 20);
  if (r.smtpProbe !== undefined) {
    if (typeof r.smtpProbe !== 'boolean') throw new TypeError('email setting smtpProbe must be a boolean');
    s.smtpProbe = r.smtpProbe;
  }
  if (r.allowPrivateTargets !== undefined) {
    if (typeof r.allowPrivateTargets !== 'boolean') throw new TypeError('email setting allowPrivateTargets must be a boolean');
    s.allowPrivateTargets = r.allowPrivateTargets;
  }
  if (r.allowedTargets !== undefined) {
    if (!Array.isArray(r.allowedTargets) || !r.allowedTargets.every((x) => typeof x === 'string')) {
      throw new TypeError('email setting allowedTargets must be a list of CIDRs or host names');
    }
    s.allowedTargets = [...r.allowedTargets];
  }
  return s;
}
