/**
 * Proxy health: a proxy that keeps failing is benched (not used) for a while, with the bench
 * doubling each time it fails again, so a dead proxy costs a few requests an hour instead of a
 * share of every batch. Two records per proxy:
 * - its own (connection refused, reset, timeouts, 407): `PROXY_FAIL_THRESHOLD` failures in a row
 *   bench it for every host;
 * - per site (a block or captcha through it: the site refuses that IP): benched for that host at
 *   the first block, since blocks follow the IP and the next request through it meets the same wall.
 * A benched proxy comes back on probation: its next failure benches it again at once, doubled.
 * A success clears the record.
 *
 * Benches are shared (`shared`, src/fetch/cluster/shared-states.ts): a proxy one worker process
 * benched is skipped by every other for the same time (namespace 'proxy', the record's key).
 */
import type { SharedStates } from './cluster/shared-states.ts';

export interface ProxyHealthOptions {
  /** Network failures in a row that bench a proxy. */
  failThreshold: number;
  /** First bench; each further one doubles, up to `benchMaxMs`. */
  benchBaseMs: number;
  benchMaxMs: number;
  now?: () => number;
  /** Where benches are told to, and read from, the other processes (on the same clock as `now`). */
  shared?: SharedStates;
}

interface Record_ {
  streak: number;
  benchCount: number;
  benchedUntil: number;
  /** Benched before and not yet successful since: the next failure benches at once. */
  probation: boolean;
}

export type ProxyFailure = 'network' | 'blocked';

export class ProxyHealth {
  private readonly records = new Map<string, Record_>();
  private readonly opts: Required<Omit<ProxyHealthOptions, 'shared'>> & Pick<ProxyHealthOptions, 'shared'>;

  constructor(opts: ProxyHealthOptions) {
    this.opts = { now: () => performance.now(), ...opts };
  }

  private rec(key: string): Record_ {
    let r = this.records.get(key);
    if (!r) {
      r = { streak: 0, benchCount: 0, benchedUntil: 0, probation: false };
      this.records.set(key, r);
    }
    return r;
  }

  /**
   * A request through `proxy` to `host` succeeded: both records are cleared.
   *
   * @example health.ok('http://dc-1:3128', 'maps.example:443')
   */
  ok(proxy: string, host: string): void {
    this.records.delete(proxy);
    this.records.delete(`${host}|${proxy}`);
  }

  /**
   * A failure: returns the bench in ms when this failure benched the proxy (for logs), else 0.
   *
   * @example health.fail('http://dc-1:3128', 'maps.example:443', 'blocked') // 30000
   */
  fail(proxy: string, host: string, kind: ProxyFailure): number {
    const r = this.rec(kind === 'blocked' ? `${host}|${proxy}` : proxy);
    r.streak++;
    const threshold = kind === 'blocked' || r.probation ? 1 : this.opts.failThreshold;
    if (r.streak < threshold) return 0;
    const ms = Math.min(this.opts.benchMaxMs, this.opts.benchBaseMs * 2 ** r.benchCount);
    r.benchCount++;
    r.streak = 0;
    r.probation = true;
    r.benchedUntil = this.opts.now() + ms;
    this.opts.shared?.set('proxy', kind === 'blocked' ? `${host}|${proxy}` : proxy, String(ms), ms);
    return ms;
  }

  /** When `proxy` may carry a request to `host` again (≤ now: available). */
  availableAt(proxy: string, host: string): number {
    const local = Math.max(this.records.get(proxy)?.benchedUntil ?? 0, this.records.get(`${host}|${proxy}`)?.benchedUntil ?? 0);
    const sh = this.opts.shared;
    if (!sh) return local;
    return Math.max(local, sh.get('proxy', proxy)?.until ?? 0, sh.get('proxy', `${host}|${proxy}`)?.until ?? 0);
  }

  available(proxy: string, host: string): boolean {
    return this.availableAt(proxy, host) <= this.opts.now();
  }

  /** Proxies benched right now, for every host or for at least one (metrics). */
  benchedCount(): number {
    const now = this.opts.now();
    const names = new Set<string>();
    for (const [k, r] of this.records) if (r.benchedUntil > now) names.add(k.slice(k.lastIndexOf('|') + 1));
    return names.size;
  }
}
