/**
 * A loopback HTTP server for tests that plays back engine answers (constructed samples) and
 * records the requests it got. Each route decides status, body and delay.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Reply = { status?: number; body?: unknown; raw?: string | Buffer; delayMs?: number; hang?: boolean };

export interface PlaybackServer {
  url: string;
  requests: URL[];
  reply: (req: URL) => Reply;
  close(): Promise<void>;
}

/**
 * @example
 *   const srv = await startPlayback(() => ({ body: constructedPhoton }));
 *   // ... engineReverse({ url: srv.url, kind: 'photon' }, 52.5, 13.4)
 *   await srv.close();
 */
export async function startPlayback(reply: (req: URL) => Reply): Promise<PlaybackServer> {
  const requests: URL[] = [];
  const open = new Set<ServerResponse>();
  const state = { reply };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(url);
    const r = state.reply(url);
    if (r.hang) {
      open.add(res);
      return;
    }
    const send = (): void => {
      res.statusCode = r.status ?? 200;
      res.setHeader('content-type', 'application/json');
      res.end(r.raw ?? JSON.stringify(r.body ?? {}));
    };
    if (r.delayMs) setTimeout(send, r.delayMs);
    else send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get reply() {
      return state.reply;
    },
    set reply(f) {
      state.reply = f;
    },
    async close() {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
