/**
 * Domain and local-part lists: disposable domains, free webmail providers, role accounts.
 *
 * Disposable: `disposable-email-domains-js` (curated, CC0) is the base; `mailchecker` (MIT) is a
 * wider second list. Both match subdomains too (foo.mailinator.com). The wider list also holds a few
 * registry-like names (pp.ua, msk.ru) and real providers; a wider-list hit on a domain that
 * `email-providers` calls a common provider and the base list does not know is not counted.
 * Free: `email-providers/common.json` (ISC), minus anything disposable.
 * Role: `role-based-email-addresses` (MIT).
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

let base: Set<string> | null = null;
let wide: Set<string> | null = null;
let providers: Set<string> | null = null;
let roles: Set<string> | null = null;

function baseList(): Set<string> {
  if (!base) {
    const m = require('disposable-email-domains-js') as { disposableEmailBlocklistSet(): Set<string> };
    base = m.disposableEmailBlocklistSet();
  }
  return base;
}

function wideList(): Set<string> {
  if (!wide) wide = (require('mailchecker') as { blacklist(): Set<string> }).blacklist();
  return wide;
}

function providerList(): Set<string> {
  if (!providers) providers = new Set((require('email-providers/common.json') as string[]).map((d) => d.toLowerCase()));
  return providers;
}

function roleList(): Set<string> {
  if (!roles) roles = new Set((require('role-based-email-addresses') as string[]).map((r) => r.toLowerCase()));
  return roles;
}

export interface DisposableHit {
  /** The listed domain that matched (the address domain or one of its parents). */
  matched: string;
  list: 'disposable-email-domains-js' | 'mailchecker';
}

/** Finds the domain or its nearest parent (of at least two labels) in `set`. */
function listedIn(set: Set<string>, domain: string, skip?: Set<string>): string | null {
  let d = domain;
  for (;;) {
    if (set.has(d) && !skip?.has(d)) return d;
    const dot = d.indexOf('.');
    if (dot < 0) return null;
    d = d.slice(dot + 1);
    if (!d.includes('.')) return null;
  }
}

/**
 * Which list calls the (ASCII, lower-case) domain disposable, or null.
 * @example disposableHit('x.mailinator.com') // { matched: 'mailinator.com', list: 'disposable-email-domains-js' }
 */
export function disposableHit(domain: string): DisposableHit | null {
  const b = listedIn(baseList(), domain);
  if (b) return { matched: b, list: 'disposable-email-domains-js' };
  const w = listedIn(wideList(), domain, providerList());
  return w ? { matched: w, list: 'mailchecker' } : null;
}

/**
 * Whether the domain is a free webmail provider (and not a disposable one).
 * @example isFreeProvider('gmail.com') // true
 */
export function isFreeProvider(domain: string): boolean {
  return providerList().has(domain) && disposableHit(domain) === null;
}

/**
 * Whether the local part names a role (info@, sales@, noreply@) rather than a person; a `+tag` is ignored.
 * @example isRoleAccount('Info+web') // true
 */
export function isRoleAccount(local: string): boolean {
  const plus = local.indexOf('+');
  const bare = (plus > 0 ? local.slice(0, plus) : local).toLowerCase();
  return roleList().has(bare);
}

/** Loads every list now (mailchecker's 56k domains take ~50 ms) so the first check does not pay. */
export function preloadLists(): void {
  baseList();
  wideList();
  providerList();
  roleList();
}

/** Sizes, for docs and health output. */
export function listSizes(): { disposableBase: number; disposableWide: number; freeProviders: number; roles: number } {
  return {
    disposableBase: baseList().size,
    disposableWide: wideList().size,
    freeProviders: providerList().size,
    roles: roleList().size,
  };
}

/** The free-provider domains (for typo suggestions). */
export function freeProviderDomains(): ReadonlySet<string> {
  return providerList();
}
