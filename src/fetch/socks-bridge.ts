/**
 * Chromium cannot authenticate to a SOCKS proxy. The browser path gives it this bridge instead: a
 * SOCKS5 server on 127.0.0.1 without authentication (only this process's Chromium knows its port)
 * that opens each requested connection through the real proxy, with its username and password,
 * and pipes the bytes. Host names go to the upstream proxy as names (remote DNS, as Chromium does).
 */
import net, { type AddressInfo } from 'node:net';
import { SocksClient, type SocksProxy } from 'socks';

export interface SocksBridge {
  /** `socks5://127.0.0.1:<port>`: what Chromium is given. */
  url: string;
  close(): Promise<void>;
}

/**
 * Starts a bridge to `upstream` (`socks5://user:pass@host:port` or `socks4://user@host:port`).
 *
 * @example
 *   const bridge = await socksBridge('socks5://u:p@10.0.0.3:1080'); // chromium proxy: bridge.url
 */
export async function socksBridge(upstream: string): Promise<SocksBridge> {
  const u = new URL(upstream);
  const proxy: SocksProxy = {
    host: u.hostname.replace(/^\[|\]$/g, ''),
    port: u.port ? Number(u.port) : 1080,
    type: u.protocol.startsWith('socks4') ? 4 : 5,
    ...(u.username ? { userId: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
  };
  const sockets = new Set<net.Socket>();
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
  };
  const server = net.createServer((client) => {
    track(client);
    let buf = Buffer.alloc(0);
    let stage: 'greet' | 'request' | 'done' = 'greet';
    const onData = (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      if (stage === 'greet') {
        if (buf.length < 2 || buf.length < 2 + buf[1]) return;
        if (buf[0] !== 5) return void client.destroy();
        buf = buf.subarray(2 + buf[1]);
        client.write(Buffer.from([5, 0]));
        stage = 'request';
      }
      if (stage !== 'request' || buf.length < 5) return;
      const atyp = buf[3];
      const len = atyp === 1 ? 10 : atyp === 4 ? 22 : 7 + buf[4];
      if (buf.length < len) return;
      stage = 'done';
      client.off('data', onData);
      client.pause();
      const host = atyp === 1 ? [...buf.subarray(4, 8)].join('.') : atyp === 3 ? buf.subarray(5, 5 + buf[4]).toString('latin1') : ipv6(buf.subarray(4, 20));
      const port = buf.readUInt16BE(len - 2);
      const rest = buf.subarray(len);
      if (buf[1] !== 1) return void client.end(Buffer.from([5, 7, 0, 1, 0, 0, 0, 0, 0, 0]));
      SocksClient.createConnection({ proxy, command: 'connect', destination: { host, port }, timeout: 30_000 })
        .then(({ socket }) => {
          track(socket);
          if (client.destroyed) return void socket.destroy();
          client.write(Buffer.from([5, 0, 0, 1, 0, 0, 0, 0, 0, 0]));
          if (rest.length) socket.write(rest);
          client.pipe(socket).pipe(client);
          client.resume();
        })
        .catch(() => client.end(Buffer.from([5, 1, 0, 1, 0, 0, 0, 0, 0, 0])));
    };
    client.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `socks5://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function ipv6(b: Buffer): string {
  const parts: string[] = [];
  for (let i = 0; i < 16; i += 2) parts.push(b.readUInt16BE(i).toString(16));
  return parts.join(':');
}
