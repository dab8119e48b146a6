/**
 * Test kit (used by the *.test.ts files here, not by the service): loopback HTTP servers and a
 * tiny forward proxy, each closed by the test that starts it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Loopback {
  url: string;
  port: number;
  server: http.Server;
  /** Requests seen, by path. */
  hits: Map<string, number>;
  /** Request headers of every request, in order. */
  seen: Array<{ path: string; headers: http.IncomingHttpHeaders }>;
  close(): Promise<void>;
}

/**
 * Starts a node:http server on 127.0.0.1 (or `host`) with the given handler.
 *
 * @example
 *   const srv = await loopback((req, res) => res.end('ok')); t.after(() => srv.close());
 */
export async function loopback(handler: http.RequestListener, host = '127.0.0.1'): Promise<Loopback> {
  const hits = new Map<string, number>();
  const seen: Loopback['seen'] = [];
  const server = http.createServer((req, res) => {
    const p = (req.url ?? '/').replace(/^https?:\/\/[^/]+/, '');
    hits.set(p.split('?')[0], (hits.get(p.split('?')[0]) ?? 0) + 1);
    seen.push({ path: p, headers: req.headers });
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}`,
    port,
    server,
    hits,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface ForwardProxy extends Loopback {
  /** Decoded user:password of each proxied request ('' when none was sent). */
  auths: string[];
  /** Absolute URLs requested through the proxy. */
  targets: string[];
}

/**
 * A minimal HTTP forward proxy: accepts absolute-URI requests (no CONNECT), checks
 * Proxy-Authorization when `credentials` is given (407 otherwise) and forwards to the target.
 *
 * @example
 *   const proxy = await forwardProxy('user:pw'); // PROXY_URLS=http://user:pw@127.0.0.1:<port>
 */
export async function forwardProxy(credentials?: string): Promise<ForwardProxy> {
  const auths: string[] = [];
  const targets: string[] = [];
  const lb = await loopback((req, res) => {
    const header = req.headers['proxy-authorization'];
    const auth = header?.startsWith('Basic ') ? Buffer.from(header.slice(6), 'base64').toString() : '';
    auths.push(auth);
    if (credentials !== undefined && auth !== credentials) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"' });
      return res.end();
    }
    const target = req.url ?? '';
    targets.push(target);
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    const up = http.request(target, { method: req.method, headers }, (upRes) => {
      res.writeHead(upRes.statusCode ?? 502, { ...upRes.headers, 'x-via-test-proxy': String(lb.port) });
      upRes.pipe(res);
    });
    up.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(up);
  });
  return Object.assign(lb, { auths, targets });
}
