/**
 * Which proxy a new identity of a host gets: one of the host's tier (or the tier below, for a
 * probe), skipping benched proxies, the least busy (in rotation among equals); the next tier up
 * when the whole tier is benched.
 * When every proxy is benched, a clear retryable error says when the first one is back: a dead
 * proxy set is never hammered.
 */
import { SourceError } from '../sources/_kit/errors.ts';
import type { ProxyEntry, ProxyPool } from './proxy.ts';
import type { ProxyHealth } from './proxy-health.ts';
import type { IdentitySource, SessionHandle } from './session.ts';
import type { HostTiers } from './tiers.ts';

/** What ranks an unanswered identity behind the answered ones (ms: longer than any wait). */
const UNANSWERED = 1e12;

export class ProxyChoice implements IdentitySource {
  private readonly cursors: number[];

  constructor(
    private readonly pool: ProxyPool,
    private readonly health: ProxyHealth,
    private readonly tiers: HostTiers,
    /** When a proxy could next start a request to a host (its pacing slot). */
    private readonly readyAt: (host: string, proxy: ProxyEntry) => number,
    /** A proxy paused longer than this for a host (Retry-After) is passed over, like a benched one. */
    private readonly maxPauseMs = Infinity,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.cursors = pool.tiers.map(() => 0);
  }

  proxyFor(host: string): { proxy?: ProxyEntry; tier: number; probe: boolean } {
    if (this.pool.tiers.every((t) => t.length === 0)) return { tier: 0, probe: false };
    const { tier, probe } = this.tiers.choose(host);
    for (let t = tier; t < this.pool.tiers.length; t++) {
      const p = this.next(t, host);
      if (p) return { proxy: p, tier: t, probe: probe && t === tier };
    }
    let back = Infinity;
    for (const t of this.pool.tiers.slice(tier)) for (const e of t) back = Math.min(back, this.health.availableAt(e.label, host));
    const ms = Math.max(0, Math.ceil(back - this.now()));
    throw new SourceError('network', `every proxy for ${host} is benched after failures; the first is back in ${Math.ceil(ms / 1000)} s`, { retryAfterMs: ms });
  }

  /**
   * The proxy of tier `t` that can start a request to `host` soonest, skipping proxies benched
   * for it; in rotation order among equals (all idle: round robin).
   */
  private next(t: number, host: string): ProxyEntry | undefined {
    const list = this.pool.tiers[t]!;
    let best: ProxyEntry | undefined;
    let bestAt = Infinity;
    let bestI = 0;
    const now = this.now();
    for (let i = 0; i < list.length; i++) {
      const e = list[(this.cursors[t]! + i) % list.length]!;
      if (!this.health.available(e.label, host)) continue;
      const at = this.readyAt(host, e);
      if (this.maxPauseMs !== Infinity && at - now > this.maxPauseMs) continue; // paused past the wait
      if (at < bestAt) {
        best = e;
        bestAt = at;
        bestI = i;
        if (at <= now) break; // free now: no one can be sooner
      }
    }
    if (best) this.cursors[t] = (this.cursors[t]! + bestI + 1) % list.length;
    return best;
  }

  stillValid(s: SessionHandle): boolean {
    if (!s.proxy || s.host === undefined) return true;
    if (!this.health.available(s.proxy.label, s.host) || this.paused(s.host, s.proxy)) return false;
    return s.probe === true || s.tier === this.tiers.current(s.host);
  }

  /** When the identity's proxy can start its next request; one still waiting for its first answer
   *  (its connection being opened) after every answered one. */
  rank(s: SessionHandle): number {
    const at = s.proxy && s.host !== undefined ? this.readyAt(s.host, s.proxy) : s.uses;
    return s.answered ? at : at + UNANSWERED;
  }

  private paused(host: string, p: ProxyEntry): boolean {
    return this.maxPauseMs !== Infinity && this.readyAt(host, p) - this.now() > this.maxPauseMs;
  }
}
