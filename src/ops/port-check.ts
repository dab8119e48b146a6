/**
 * Whether the API's address can be listened on, asked before `trawl serve` opens the store or creates
 * the first account: a port in use must not leave a new account and a printed key behind, and the
 * answer names the setting to change instead of a raw EADDRINUSE stack.
 *
 * @example await portProblem(8080, '127.0.0.1') // undefined, or 'port 8080 on 127.0.0.1 is already in use ...'
 */
import { createServer } from 'node:net';

/** Why listening on `host:port` fails, as a sentence naming the setting; undefined when it works. */
export function listenProblem(e: NodeJS.ErrnoException, port: number, host: string): string | undefined {
  switch (e.code) {
    case 'EADDRINUSE': return `port ${port} on ${host} is already in use (another trawl, or another program): set PORT to a free port, or stop the other one`;
    case 'EACCES': return `port ${port} on ${host} needs privileges this user lacks: set PORT to 1024 or above`;
    case 'EADDRNOTAVAIL': return `HOST ${host} is not an address of this machine: set HOST to one of its addresses (127.0.0.1, 0.0.0.0 for all)`;
    case 'ENOTFOUND': case 'EAI_AGAIN': return `HOST ${host} does not resolve: set HOST to an address of this machine`;
    default: return undefined;
  }
}

export function portProblem(port: number, host: string): Promise<string | undefined> {
  if (port === 0) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (e: NodeJS.ErrnoException) => resolve(listenProblem(e, port, host) ?? `cannot listen on ${host}:${port} (${e.code ?? e.message}): check PORT and HOST`));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(undefined)));
  });
}
