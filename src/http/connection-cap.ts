/**
 * Caps on what one client can hold of the API's connections (issue 28: 20,000 slow-loris
 * connections from one address used every file descriptor, and 63 of 71 `/health` probes failed):
 * at most MAX_CONNECTIONS_PER_ADDRESS open connections per client address (the next one is closed
 * as soon as it is accepted, before a byte is parsed), and the time-outs Node applies to a
 * connection's request head, whole request and idle keep-alive, checked every second.
 *
 * @example
 *   const limits = { perAddress: 256, headersTimeoutMs: 10_000, requestTimeoutMs: 60_000, keepAliveTimeoutMs: 72_000 };
 *   const server = createServer({ ...timeoutOptions(limits) }, handler);
 *   capConnections(server, limits, () => metrics.connectionsRefused.inc());
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionLimits } from '../config/settings.ts';

/** Node's server options for the time-outs; time-outs are checked every second (Node's default: 30 s). */
export const timeoutOptions = (l: ConnectionLimits) => ({
  headersTimeout: l.headersTimeoutMs, requestTimeout: l.requestTimeoutMs, keepAliveTimeout: l.keepAliveTimeoutMs, connectionsCheckingInterval: 1_000,
});

/** Counts and caps open connections per address; `onRefused` is told of each connection closed on arrival. */
export function capConnections(server: Server, limits: ConnectionLimits, onRefused: () => void = () => {}): { open(address: string): number } {
  const open = new Map<string, number>();
  if (limits.perAddress > 0) {
    // Before http's own listener: a refused socket never gets a parser.
    server.prependListener('connection', (socket: Socket) => {
      const address = socket.remoteAddress ?? '';
      const n = open.get(address) ?? 0;
      if (n >= limits.perAddress) {
        onRefused();
        socket.destroy();
        return;
      }
      open.set(address, n + 1);
      socket.once('close', () => {
        const left = (open.get(address) ?? 1) - 1;
        if (left > 0) open.set(address, left);
        else open.delete(address);
      });
    });
  }
  return { open: (address) => open.get(address) ?? 0 };
}
