/**
 * Proxy tiers per host (`PROXY_TIERS`, cheapest first, e.g. datacenter then residential). A host
 * starts on tier 0. When blocks dominate its recent answers on its tier, it moves up one; from a
 * higher tier, one identity now and then (`PROXY_TIER_PROBE_MS`) is sent a tier down, and a
 * success there moves the host back down. Expensive proxies are spent only where cheap ones fail.
 * A move is shared (`shared`, namespace 'tier'): every worker process follows it within a second.
 */
import type { SharedStates } from './cluster/shared-states.ts';

export interface HostTiersOptions {
  /** Number of tiers. */
  tiers: number;
  /** Time on a tier before one identity probes the tier below. */
  probeEveryMs: number;
  now?: () => number;
  /** Where moves are told to, and taken from, the other processes. */
  shared?: SharedStates;
}

export type TierOutcome = 'ok' | 'blocked' | 'other';

interface HostState {
  tier: number;
  /** Moving average of the share of blocks among this tier's answers (weight 1/10). */
  blockRate: number;
  answers: number;
  probeAt: number;
  /** When a probe went out; another may start if it never answers (its work item ended). */
  probingSince?: number;
}

/** A tier escalates when the moving share of blocks among its answers reaches this (from a clean
 *  start: 7 blocks in a row; a few banned IPs among forty never move a host)... */
export const ESCALATE_SHARE = 0.5;
/** ...and it has had at least this many answers since the host came to it. */
export const ESCALATE_MIN_ANSWERS = 5;
const ALPHA = 0.1;
/** How long a shared move is remembered by processes that start later. */
const TIER_SHARED_MS = 3_600_000;
const PROBE_TIMEOUT_MS = 60_000;

export class HostTiers {
  private readonly hosts = new Map<string, HostState>();
  private readonly opts: Required<Omit<HostTiersOptions, 'shared'>> & Pick<HostTiersOptions, 'shared'>;
  private readonly off?: () => void;

  constructor(opts: HostTiersOptions) {
    this.opts = { now: () => performance.now(), ...opts };
    // Another process moved a host: follow (its probes and answers then count here as our own).
    this.off = opts.shared?.on('tier', (host, s) => {
      const tier = Number(s.value);
      const st = this.state(host);
      if (Number.isInteger(tier) && tier >= 0 && tier < this.opts.tiers && tier !== st.tier) this.move(st, tier, this.opts.now());
    });
  }

  /** Stops following the other processes' moves. */
  close(): void {
    this.off?.();
  }

  private state(host: string): HostState {
    let st = this.hosts.get(host);
    if (!st) {
      st = { tier: 0, blockRate: 0, answers: 0, probeAt: Infinity };
      this.hosts.set(host, st);
      // A host another process moved before this one started (or met the host) starts there.
      const told = Number(this.opts.shared?.get('tier', host)?.value ?? 0);
      if (Number.isInteger(told) && told > 0 && told < this.opts.tiers) this.move(st, told, this.opts.now());
    }
    return st;
  }

  /** The host's state, when it has one here or another process moved it. */
  private known(host: string): HostState | undefined {
    return this.hosts.get(host) ?? (this.opts.shared?.get('tier', host) ? this.state(host) : undefined);
  }

  /** The host's current tier (no probe). */
  current(host: string): number {
    return this.known(host)?.tier ?? 0;
  }

  /**
   * The tier a new identity for `host` should use: the host's tier, or one below when a probe is due.
   *
   * @example tiers.choose('maps.example:443') // { tier: 1, probe: false }
   */
  choose(host: string): { tier: number; probe: boolean } {
    const st = this.known(host);
    if (!st || st.tier === 0) return { tier: 0, probe: false };
    const now = this.opts.now();
    const probing = st.probingSince !== undefined && now - st.probingSince < PROBE_TIMEOUT_MS;
    if (!probing && now >= st.probeAt) {
      st.probingSince = now;
      return { tier: st.tier - 1, probe: true };
    }
    return { tier: st.tier, probe: false };
  }

  /**
   * An answer to `host` through a proxy of `tier`; returns the host's tier after it.
   *
   * @example tiers.record('maps.example:443', 0, 'blocked')
   */
  record(host: string, tier: number, outcome: TierOutcome): number {
    const st = this.state(host);
    const now = this.opts.now();
    if (tier < st.tier) {
      // A probe's answer: a success moves the host down, a block waits for the next probe.
      st.probingSince = undefined;
      if (outcome === 'ok') this.move(st, tier, now, host);
      else if (outcome === 'blocked') st.probeAt = now + this.opts.probeEveryMs;
      return st.tier;
    }
    if (tier > st.tier) return st.tier; // an identity from before a move down: not this tier's news
    st.answers++;
    st.blockRate = st.blockRate * (1 - ALPHA) + (outcome === 'blocked' ? ALPHA : 0);
    if (outcome === 'blocked' && st.answers >= ESCALATE_MIN_ANSWERS && st.blockRate >= ESCALATE_SHARE && st.tier < this.opts.tiers - 1) this.move(st, st.tier + 1, now, host);
    return st.tier;
  }

  /** `host` given: a move of our own, told to the other processes. */
  private move(st: HostState, tier: number, now: number, host?: string): void {
    if (host !== undefined) this.opts.shared?.set('tier', host, String(tier), TIER_SHARED_MS);
    st.tier = tier;
    st.blockRate = 0;
    st.answers = 0;
    st.probingSince = undefined;
    st.probeAt = tier > 0 ? now + this.opts.probeEveryMs : Infinity;
  }
}
