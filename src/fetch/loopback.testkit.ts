/**
 * Test kit (used by the *.test.ts files here, not by the service): loopback HTTP servers and a
 * tiny forward proxy, each closed by the test that starts it.
 */
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';

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

export interface SocksServer {
  port: number;
  /** user:password of each accepted connection ('' without auth). */
  auths: string[];
  /** host:port each CONNECT asked for. */
  targets: string[];
  close(): Promise<void>;
}

/**
 * A minimal SOCKS5 server (RFC 1928 CONNECT, RFC 1929 username/password when `credentials` is set).
 *
 * @example
 *   const socks = await socks5Server('u:p'); // PROXY_URLS=socks5://u:p@127.0.0.1:<port>
 */
export async function socks5Server(credentials?: string): Promise<SocksServer> {
  const auths: string[] = [];
  const targets: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    let buf = Buffer.alloc(0);
    let stage: 'greet' | 'auth' | 'request' | 'piped' = 'greet';
    const take = (n: number) => {
      const out = buf.subarray(0, n);
      buf = buf.subarray(n);
      return out;
    };
    client.on('data', (d: Buffer) => {
      if (stage === 'piped') return;
      buf = Buffer.concat([buf, d]);
      if (stage === 'greet' && buf.length >= 2 && buf.length >= 2 + buf[1]) {
        const methods = [...take(2 + buf[1]).subarray(2)];
        const want = credentials === undefined ? 0x00 : 0x02;
        if (!methods.includes(want)) return client.end(Buffer.from([5, 0xff]));
        client.write(Buffer.from([5, want]));
        stage = want === 2 ? 'auth' : 'request';
        if (want === 0) auths.push('');
      }
      if (stage === 'auth' && buf.length >= 2) {
        const ul = buf[1];
        if (buf.length < 3 + ul || buf.length < 3 + ul + buf[2 + ul]) return;
        const pl = buf[2 + ul];
        const msg = take(3 + ul + pl);
        const auth = `${msg.subarray(2, 2 + ul)}:${msg.subarray(3 + ul, 3 + ul + pl)}`;
        auths.push(auth);
        if (auth !== credentials) return client.end(Buffer.from([1, 1]));
        client.write(Buffer.from([1, 0]));
        stage = 'request';
      }
      if (stage === 'request' && buf.length >= 5) {
        const atyp = buf[3];
        const len = atyp === 1 ? 10 : atyp === 4 ? 22 : 7 + buf[4];
        if (buf.length < len) return;
        const req = take(len);
        const host = atyp === 1 ? [...req.subarray(4, 8)].join('.') : atyp === 3 ? req.subarray(5, 5 + req[4]).toString() : '::1';
        const port = req.readUInt16BE(len - 2);
        targets.push(`${host}:${port}`);
        stage = 'piped';
        const up = net.connect(port, host, () => {
          client.write(Buffer.from([5, 0, 0, 1, 127, 0, 0, 1, 0, 0]));
          if (buf.length) up.write(buf);
          client.pipe(up).pipe(client);
        });
        up.on('error', () => client.end(Buffer.from([5, 5, 0, 1, 0, 0, 0, 0, 0, 0])));
        sockets.add(up);
        up.on('close', () => sockets.delete(up));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    auths,
    targets,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
