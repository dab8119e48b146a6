/**
 * Signed-in cookie sets for the map product (issue 34, item 2). The operator gives one `Cookie` header
 * per account (`MAPS_COOKIES`: accounts one a line; or `MAPS_COOKIES_FILE`: a file, one a line, `#`
 * comments), copied from a signed-in browser (`__Secure-1PSID`, `__Secure-1PSIDTS`, ...). Each account
 * is an identity named `account-<n>` (its line number among the accounts): a work item keeps one while
 * it is healthy, with its own proxy (the pool's proxy for its name) and its own pacing slot.
 *
 * An answer that says the account is signed out (401, 403, a sign-in page: `signedOutAnswer`) benches
 * it: the executor asks again with the next healthy one, or signed out when none is left. The bench is
 * said once in the log and on `/health` as `notes["signed_in:account-2"]`, naming the account and the
 * reason, never the cookie. Cookies follow credentials.ts's rules: added by the executor per request
 * (never in a step, so never stored with work, in a checkpoint or a cursor), `cookie` redacted in HAR.
 *
 * The bench state sits behind `IdentityBench`: `SharedBench` keeps it in the executor's shared states,
 * so with a cluster store an account benched by one worker process is skipped by every process within
 * about a second (issue 35, item 2).
 *
 * @example
 *   const pool = new SignedInPool(signedInFromEnv({ MAPS_COOKIES: '__Secure-1PSID=a; __Secure-1PSIDTS=b' }));
 *   pool.pick('request-1:0', 'www.google.com')?.label // 'account-1'
 */
import { readFileSync } from 'node:fs';
import { setHealthNote } from '../ops/health-notes.ts';
import type { SharedStates } from './cluster/shared-states.ts';

export interface SignedInAccount {
  label: string;
  cookie: string;
}

export interface SignedInSettings {
  /** Hosts the cookies go to (default the map product's). */
  hosts: string[];
  accounts: SignedInAccount[];
  /** How long a benched account stays out (an expired cookie does not heal by itself). */
  benchMs: number;
}

/** Where bench state lives: this process by default; a shared store can implement the same. */
export interface IdentityBench {
  /** The reason an account is benched now, or null. */
  benched(label: string, now: number): string | null;
  bench(label: string, reason: string, until: number): void;
}

export class MemoryBench implements IdentityBench {
  private readonly until = new Map<string, { reason: string; until: number }>();
  benched(label: string, now: number): string | null {
    const b = this.until.get(label);
    if (!b) return null;
    if (b.until > now) return b.reason;
    this.until.delete(label);
    setHealthNote(`signed_in:${label}`, null);
    return null;
  }
  bench(label: string, reason: string, until: number): void {
    this.until.set(label, { reason, until });
  }
}

/** Namespace and key prefix of an account's bench among the cluster's shared states. */
const NS = 'identity';
const PREFIX = 'maps/';

/**
 * Bench state in the shared states (`Executor.shared`: this process alone, or the cluster's): the
 * health note follows a bench another process set, and goes when the bench is found expired here.
 */
export class SharedBench implements IdentityBench {
  private readonly noted = new Set<string>();
  /** Stops following other processes' benches (the executor's close). */
  readonly off: () => void;
  constructor(private readonly shared: SharedStates, private readonly now: () => number = Date.now) {
    this.off = shared.on(NS, (key, state) => {
      if (!key.startsWith(PREFIX)) return;
      const label = key.slice(PREFIX.length);
      this.noted.add(label);
      setHealthNote(`signed_in:${label}`, `signed-in identity ${label} benched by another worker: ${state.value}`);
    });
  }
  benched(label: string): string | null {
    const s = this.shared.get(NS, PREFIX + label);
    if (s) return s.value;
    if (this.noted.delete(label)) setHealthNote(`signed_in:${label}`, null);
    return null;
  }
  bench(label: string, reason: string, until: number): void {
    this.noted.add(label);
    this.shared.set(NS, PREFIX + label, reason, Math.max(1, until - this.now()));
  }
}

const DEFAULT_HOSTS = ['www.google.com'];

/** The accounts the environment gives (none by default). Throws on a cookie line with no `name=value`. */
export function signedInFromEnv(env: Record<string, string | undefined>, read: (path: string) => string = (p) => readFileSync(p, 'utf8')): SignedInSettings {
  const lines: string[] = [];
  if (env.MAPS_COOKIES?.trim()) lines.push(...env.MAPS_COOKIES.split(/\r?\n/));
  if (env.MAPS_COOKIES_FILE?.trim()) lines.push(...read(env.MAPS_COOKIES_FILE.trim()).split(/\r?\n/));
  const accounts: SignedInAccount[] = [];
  for (const raw of lines) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    // The message names the account's place, never its text: a cookie must not reach a log.
    if (!/^[^=;\s]+=/.test(line)) throw new Error(`setting MAPS_COOKIES(_FILE): account ${accounts.length + 1} is not a Cookie header (name=value; ...)`);
    accounts.push({ label: `account-${accounts.length + 1}`, cookie: line });
  }
  const hosts = (env.MAPS_COOKIE_HOSTS ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean);
  const hours = Number(env.MAPS_COOKIE_BENCH_HOURS ?? '6');
  return { hosts: hosts.length ? hosts : DEFAULT_HOSTS, accounts, benchMs: (Number.isFinite(hours) && hours > 0 ? hours : 6) * 3_600_000 };
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|\[::1\]|localhost)$/;

/**
 * Whether an answer says the account is not signed in: a 401 or 403, a final URL on the sign-in host,
 * or a sign-in page where data belongs. Null when it reads as signed in.
 */
export function signedOutAnswer(res: { status: number; url: string; body: string }): string | null {
  if (res.status === 401 || res.status === 403) return `HTTP ${res.status} (signed out or expired)`;
  if (/^https:\/\/accounts\.google\.com\//i.test(res.url)) return 'redirected to the sign-in page';
  if (!/^\s*(?:\)\]\}'|\[|\{)/.test(res.body) && /<title>Sign in[^<]*<\/title>|accounts\.google\.com\/(?:ServiceLogin|v3\/signin)/i.test(res.body.slice(0, 200_000))) return 'a sign-in page';
  return null;
}

export class SignedInPool {
  private readonly byKey = new Map<string, string>();
  private next = 0;
  constructor(readonly settings: SignedInSettings, private readonly store: IdentityBench = new MemoryBench(), private readonly now: () => number = Date.now) {}

  get size(): number {
    return this.settings.accounts.length;
  }

  /** Whether a request to `url` may carry a signed-in cookie: a listed host, over https (loopback: tests). */
  covers(url: string): boolean {
    if (!this.size) return false;
    let u: URL;
    try { u = new URL(url); } catch { return false; }
    return this.settings.hosts.includes(u.host.toLowerCase()) && (u.protocol === 'https:' || LOOPBACK.test(u.hostname));
  }

  /** The work item's healthy account (the same while it stays healthy), or undefined when none is. */
  pick(workKey: string): SignedInAccount | undefined {
    const now = this.now();
    const held = this.byKey.get(workKey);
    const accounts = this.settings.accounts;
    if (held) {
      const a = accounts.find((x) => x.label === held);
      if (a && !this.store.benched(a.label, now)) return a;
    }
    for (let k = 0; k < accounts.length; k++) {
      const a = accounts[(this.next + k) % accounts.length]!;
      if (this.store.benched(a.label, now)) continue;
      this.next = (this.next + k + 1) % accounts.length;
      this.byKey.set(workKey, a.label);
      return a;
    }
    this.byKey.delete(workKey);
    return undefined;
  }

  /**
   * Moves the work item to another healthy account than its own (a stub answer: ask again as someone
   * else) and returns it; undefined when there is no other (the caller then asks signed out).
   */
  other(workKey: string): SignedInAccount | undefined {
    const now = this.now();
    const held = this.byKey.get(workKey);
    const accounts = this.settings.accounts;
    for (let k = 0; k < accounts.length; k++) {
      const a = accounts[(this.next + k) % accounts.length]!;
      if (a.label === held || this.store.benched(a.label, now)) continue;
      this.next = (this.next + k + 1) % accounts.length;
      this.byKey.set(workKey, a.label);
      return a;
    }
    return undefined;
  }

  /** Benches an account: logged once and shown on /health by its name and the reason. */
  bench(a: SignedInAccount, reason: string): void {
    const until = this.now() + this.settings.benchMs;
    this.store.bench(a.label, reason, until);
    setHealthNote(`signed_in:${a.label}`, `signed-in identity ${a.label} benched: ${reason}; until ${new Date(until).toISOString()} (replace its cookies: docs/sources-maps-2026.md)`);
  }

  /** Healthy accounts now. */
  healthy(): number {
    const now = this.now();
    return this.settings.accounts.filter((a) => !this.store.benched(a.label, now)).length;
  }

  release(workKey: string): void {
    this.byKey.delete(workKey);
  }
}
