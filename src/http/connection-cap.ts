/**
 * Caps on the API's connections, so that no client, nor many clients together, can hold every file
 * descriptor (issue 28: 20,000 slow-loris connections from one address; issue 39: 100 addresses ×
 * 200 connections, each under the per-address cap, used all 20,000 and 33 of 54 `/health` probes
 * failed):
 * - at most `perAddress` open connections per client, where a client is an IPv4 address or an IPv6
 *   /64 (one host is handed a whole /64, so counting its addresses one by one caps nothing);
 * - at most `total` open connections in all, below the process's descriptor limit;
 * - the last `reserve` of those only for clients that hold fewer than RESERVE_HOLDING: a health
 *   check or a new client still gets in when the rest is taken.
 * A refused connection is closed as soon as it is accepted, before a byte is parsed. The time-outs
 * Node applies to a request's head, whole request and idle keep-alive are checked every second.
 *
 * @example
 *   const limits = { perAddress: 256, total: 16_000, reserve: 800, headersTimeoutMs: 10_000, requestTimeoutMs: 60_000, keepAliveTimeoutMs: 72_000 };
 *   const server = createServer({ ...timeoutOptions(limits) }, handler);
 *   capConnections(server, limits, (why) => metrics.connectionsRefused.inc());
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionLimits } from '../config/settings.ts';
import { clientGroup } from './client-group.ts';

/** A client holding fewer connections than this may use the reserve (a probe, a browser's few). */
export const RESERVE_HOLDING = 4;

export type Refusal = 'address' | 'total' | 'reserve';

/** Node's server options for the time-outs; time-outs are checked every second (Node's default: 30 s). */
export const timeoutOptions = (l: ConnectionLimits) => ({
  headersTimeout: l.headersTimeoutMs, requestTimeout: l.requestTimeoutMs, keepAliveTimeout: l.keepAliveTimeoutMs, connectionsCheckingInterval: 1_000,
});

/** What the caps say of one more connection from a client holding `held`, with `open` in all. */
export function admit(l: Pick<ConnectionLimits, 'perAddress' | 'total' | 'reserve'>, held: number, open: number): Refusal | null {
  if (l.perAddress > 0 && held >= l.perAddress) return 'address';
  if (l.total > 0) {
    if (open >= l.total) return 'total';
    if (open >= l.total - l.reserve && held >= RESERVE_HOLDING) return 'reserve';
  }
  return null;
}

/** Counts and caps open connections; `onRefused` is told of each connection closed on arrival and why. */
export function capConnections(server: Server, limits: ConnectionLimits, onRefused: (why: Refusal) => void = () => {}): { open(address: string): number; total(): number } {
  const held = new Map<string, number>();
  let open = 0;
  if (limits.perAddress > 0 || limits.total > 0) {
    // Before http's own listener: a refused socket never gets a parser.
    server.prependListener('connection', (socket: Socket) => {
      const group = clientGroup(socket.remoteAddress ?? '');
      const n = held.get(group) ?? 0;
      const refused = admit(limits, n, open);
      if (refused) {
        onRefused(refused);
        socket.destroy();
        return;
      }
      held.set(group, n + 1);
      open++;
      socket.once('close', () => {
        open--;
        const left = (held.get(group) ?? 1) - 1;
        if (left > 0) held.set(group, left);
        else held.delete(group);
      });
    });
  }
  return { open: (address) => held.get(clientGroup(address)) ?? 0, total: () => open };
}
