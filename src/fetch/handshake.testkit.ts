/**
 * Test kit (tests and benches only): a loopback HTTPS listener that reads what a client's handshake
 * says about it before answering, the way a bot wall does. For each connection it keeps the raw TLS
 * ClientHello (cipher order, extension order with GREASE, ALPN, ALPS, certificate compression,
 * record size limit, groups, key shares, JA3/JA4), the HTTP/2 client preface (SETTINGS in order,
 * WINDOW_UPDATE, PRIORITY frames, the first HEADERS frame's priority) and, per request, the header
 * order as sent (pseudo-headers included). Plain HTTP on the same port is answered too (no hello).
 *
 * The pure readers (`parseClientHello`, `parseHttp2Preface`) work on bytes alone, so a bench can
 * judge connections without this listener.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import http2 from 'node:http2';
import net, { type AddressInfo } from 'node:net';
import { Duplex } from 'node:stream';
import tls from 'node:tls';

/** A self-signed certificate for 127.0.0.1, 127.0.0.2 and localhost (valid to 2126), made for these tests only. */
export const LOOPBACK_TLS = {
  key: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgB30+djD6LzywlmQ+
nZCK4KI7hkdvZDXJBZoUK0SboGihRANCAAQCAZ5YLD8bE6irArMfPglFWPXMsa0x
CTThaSIHH8UGPpo5L2Aj6KyVQn+ph68KlyNvo8U6/YP8NeGW1wphTjOv
-----END PRIVATE KEY-----
`,
  cert: `-----BEGIN CERTIFICATE-----
MIIBtTCCAVugAwIBAgIUUSecz1FZYJ/TZLhQ8lWHOXbei+IwCgYIKoZIzj0EAwIw
HjEcMBoGA1UEAwwTdHJhd2wgbG9vcGJhY2sgdGVzdDAgFw0yNjExMjcwNTMyNTJa
GA8yMTI2MTEwMzA1MzI1MlowHjEcMBoGA1UEAwwTdHJhd2wgbG9vcGJhY2sgdGVz
dDBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABAIBnlgsPxsTqKsCsx8+CUVY9cyx
rTEJNOFpIgcfxQY+mjkvYCPorJVCf6mHrwqXI2+jxTr9g/w14ZbXCmFOM6+jdTBz
MB0GA1UdDgQWBBSWh0vmVjqpd+1s86UXioIM9ppSATAfBgNVHSMEGDAWgBSWh0vm
Vjqpd+1s86UXioIM9ppSATAPBgNVHRMBAf8EBTADAQH/MCAGA1UdEQQZMBeHBH8A
AAGHBH8AAAKCCWxvY2FsaG9zdDAKBggqhkjOPQQDAgNIADBFAiABpkG23BsdvlJX
KM6VNg0v7qg3ji2lu1cVEJdW2mdkAQIhANM80AIIz9APpvo75MNhh9EOw0ut68F2
uVkzpR0ucg5B
-----END CERTIFICATE-----
`,
};

/** TLS extension code points the readers name. */
export const EXT = {
  serverName: 0,
  statusRequest: 5,
  supportedGroups: 10,
  ecPointFormats: 11,
  signatureAlgorithms: 13,
  alpn: 16,
  signedCertificateTimestamp: 18,
  padding: 21,
  extendedMasterSecret: 23,
  compressCertificate: 27,
  recordSizeLimit: 28,
  delegatedCredentials: 34,
  sessionTicket: 35,
  preSharedKey: 41,
  earlyData: 42,
  supportedVersions: 43,
  pskKeyExchangeModes: 45,
  keyShare: 51,
  alpsOld: 17513,
  alpsNew: 17613,
  ech: 0xfe0d,
  renegotiationInfo: 0xff01,
} as const;

/** RFC 8701 GREASE values: 0x0a0a, 0x1a1a, ... 0xfafa (ciphers, extensions, groups, versions). */
export function isGrease(v: number): boolean {
  return (v & 0x0f0f) === 0x0a0a && v >> 8 === (v & 0xff);
}

export interface ClientHello {
  /** legacy_version of the hello (0x0303 for TLS 1.2 and 1.3). */
  version: number;
  /** Cipher suites in the order sent, GREASE included. */
  ciphers: number[];
  /** Extension types in the order sent, GREASE included. */
  extensions: number[];
  /** True when a GREASE value appears among ciphers, extensions, groups or versions. */
  grease: boolean;
  serverName?: string;
  alpn: string[];
  /** ALPS protocols (old or new code point, see `alpsCodepoint`). */
  alps: string[];
  alpsCodepoint?: number;
  /** compress_certificate algorithms: 1 zlib, 2 brotli, 3 zstd. */
  certCompression: number[];
  recordSizeLimit?: number;
  supportedGroups: number[];
  keyShares: number[];
  signatureAlgorithms: number[];
  supportedVersions: number[];
  ecPointFormats: number[];
  pskModes: number[];
  delegatedCredentials: number[];
  ech: boolean;
  /** JA3 text (GREASE removed, extensions in sent order) and its MD5. */
  ja3: string;
  ja3Hash: string;
  /** JA4 (sorted, so stable under Chrome's extension shuffling). */
  ja4: string;
}

/** Bytes still needed before `buf` (from a connection's start) holds a whole ClientHello; 0 when it does, -1 when it is not TLS. */
export function clientHelloMissing(buf: Buffer): number {
  if (buf.length === 0) return 1;
  if (buf[0] !== 0x16) return -1;
  const hs = handshakeBytes(buf);
  if (hs.length < 4) return Math.max(1, 9 - buf.length);
  const need = 4 + hs.readUIntBE(1, 3);
  return hs.length >= need ? 0 : need - hs.length;
}

/** The handshake-layer bytes of the leading TLS records (a hello may span records). */
function handshakeBytes(buf: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  while (at + 5 <= buf.length && buf[at] === 0x16) {
    const len = buf.readUInt16BE(at + 3);
    parts.push(buf.subarray(at + 5, Math.min(buf.length, at + 5 + len)));
    at += 5 + len;
  }
  return Buffer.concat(parts);
}

/** A bounds-checked reader: a short or malformed hello throws instead of reading garbage. */
class Reader {
  constructor(
    private readonly b: Buffer,
    public at = 0,
    private readonly end = b.length,
  ) {}
  private need(n: number): void {
    if (this.at + n > this.end) throw new Error(`truncated ClientHello at byte ${this.at}`);
  }
  u8(): number {
    this.need(1);
    return this.b[this.at++];
  }
  u16(): number {
    this.need(2);
    const v = this.b.readUInt16BE(this.at);
    this.at += 2;
    return v;
  }
  bytes(n: number): Buffer {
    this.need(n);
    const v = this.b.subarray(this.at, this.at + n);
    this.at += n;
    return v;
  }
  /** A sub-reader over a vector with a `lenBytes`-byte length prefix. */
  vec(lenBytes: 1 | 2): Reader {
    const n = lenBytes === 1 ? this.u8() : this.u16();
    this.need(n);
    const r = new Reader(this.b, this.at, this.at + n);
    this.at += n;
    return r;
  }
  get left(): number {
    return this.end - this.at;
  }
  u16s(): number[] {
    const out: number[] = [];
    while (this.left >= 2) out.push(this.u16());
    return out;
  }
  u8s(): number[] {
    const out: number[] = [];
    while (this.left >= 1) out.push(this.u8());
    return out;
  }
  /** ALPN/ALPS-style list of u8-length strings. */
  strings(): string[] {
    const out: string[] = [];
    while (this.left > 0) out.push(this.bytes(this.u8()).toString('latin1'));
    return out;
  }
}

/**
 * Reads a ClientHello from the first bytes of a TLS connection (one or more handshake records).
 *
 * @example
 *   const hello = parseClientHello(firstBytes); hello.grease && hello.ciphers[1] === 0x1301
 */
export function parseClientHello(buf: Buffer): ClientHello {
  const hs = handshakeBytes(buf);
  if (hs.length < 4 || hs[0] !== 1) throw new Error('not a TLS ClientHello');
  const r = new Reader(hs, 4, Math.min(hs.length, 4 + hs.readUIntBE(1, 3)));
  const version = r.u16();
  r.bytes(32);
  r.vec(1);
  const ciphers = r.vec(2).u16s();
  r.vec(1);
  const hello: ClientHello = {
    version, ciphers, extensions: [], grease: false, alpn: [], alps: [], certCompression: [], supportedGroups: [], keyShares: [],
    signatureAlgorithms: [], supportedVersions: [], ecPointFormats: [], pskModes: [], delegatedCredentials: [], ech: false, ja3: '', ja3Hash: '', ja4: '',
  };
  const exts = r.left > 0 ? r.vec(2) : new Reader(Buffer.alloc(0));
  while (exts.left > 0) {
    const type = exts.u16();
    const data = exts.vec(2);
    hello.extensions.push(type);
    switch (type) {
      case EXT.serverName: {
        const list = data.vec(2);
        while (list.left > 0) {
          const kind = list.u8();
          const name = list.vec(2);
          if (kind === 0) hello.serverName = name.bytes(name.left).toString('latin1');
        }
        break;
      }
      case EXT.alpn:
        hello.alpn = data.vec(2).strings();
        break;
      case EXT.alpsOld:
      case EXT.alpsNew:
        hello.alps = data.vec(2).strings();
        hello.alpsCodepoint = type;
        break;
      case EXT.compressCertificate:
        hello.certCompression = data.vec(1).u16s();
        break;
      case EXT.recordSizeLimit:
        hello.recordSizeLimit = data.u16();
        break;
      case EXT.supportedGroups:
        hello.supportedGroups = data.vec(2).u16s();
        break;
      case EXT.keyShare: {
        const list = data.vec(2);
        while (list.left > 0) {
          hello.keyShares.push(list.u16());
          list.vec(2);
        }
        break;
      }
      case EXT.signatureAlgorithms:
        hello.signatureAlgorithms = data.vec(2).u16s();
        break;
      case EXT.delegatedCredentials:
        hello.delegatedCredentials = data.vec(2).u16s();
        break;
      case EXT.supportedVersions:
        hello.supportedVersions = data.vec(1).u16s();
        break;
      case EXT.ecPointFormats:
        hello.ecPointFormats = data.vec(1).u8s();
        break;
      case EXT.pskKeyExchangeModes:
        hello.pskModes = data.vec(1).u8s();
        break;
      case EXT.ech:
        hello.ech = true;
        break;
    }
  }
  hello.grease = [hello.ciphers, hello.extensions, hello.supportedGroups, hello.supportedVersions].some((l) => l.some(isGrease));
  const clean = (l: number[]) => l.filter((v) => !isGrease(v));
  hello.ja3 = [version, clean(ciphers).join('-'), clean(hello.extensions).join('-'), clean(hello.supportedGroups).join('-'), hello.ecPointFormats.join('-')].join(',');
  hello.ja3Hash = createHash('md5').update(hello.ja3).digest('hex');
  hello.ja4 = ja4(hello);
  return hello;
}

/** JA4 (FoxIO's TLS client fingerprint, the `t` = TCP form). */
function ja4(h: ClientHello): string {
  const hex = (v: number) => v.toString(16).padStart(4, '0');
  const sha12 = (s: string) => (s ? createHash('sha256').update(s).digest('hex').slice(0, 12) : '000000000000');
  const versions = h.supportedVersions.filter((v) => !isGrease(v));
  const top = versions.length ? Math.max(...versions) : h.version;
  const ver = ({ 0x0304: '13', 0x0303: '12', 0x0302: '11', 0x0301: '10' } as Record<number, string>)[top] ?? '00';
  const ciphers = h.ciphers.filter((v) => !isGrease(v));
  const exts = h.extensions.filter((v) => !isGrease(v));
  const a = h.alpn[0] ?? '';
  const alpn = a ? `${a[0]}${a[a.length - 1]}` : '00';
  const two = (n: number) => String(Math.min(n, 99)).padStart(2, '0');
  const part1 = `t${ver}${h.serverName ? 'd' : 'i'}${two(ciphers.length)}${two(exts.length)}${alpn}`;
  const part2 = sha12([...ciphers].sort((x, y) => x - y).map(hex).join(','));
  const sortedExts = exts.filter((v) => v !== EXT.serverName && v !== EXT.alpn).sort((x, y) => x - y).map(hex).join(',');
  const sigs = h.signatureAlgorithms.map(hex).join(',');
  const part3 = sha12(sigs ? `${sortedExts}_${sigs}` : sortedExts);
  return `${part1}_${part2}_${part3}`;
}

/** The HTTP/2 client connection preface ("PRI * HTTP/2.0..."). */
export const H2_PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

export interface Http2Preface {
  /** SETTINGS of the first SETTINGS frame, in the order sent: [identifier, value]. */
  settings: Array<[number, number]>;
  /** Connection-level WINDOW_UPDATE increment sent before the first request (0 when none). */
  windowUpdate: number;
  /** PRIORITY frames before the first HEADERS: stream, dependency, weight (1-256), exclusive. */
  priorities: Array<{ stream: number; dependsOn: number; weight: number; exclusive: boolean }>;
  /** The priority carried by the first HEADERS frame, when it has the PRIORITY flag. */
  headersPriority?: { dependsOn: number; weight: number; exclusive: boolean };
  /** True once the first HEADERS frame has been read (the preface is complete). */
  complete: boolean;
}

/**
 * Reads the HTTP/2 client preface from the first decrypted bytes of a connection: the magic, then
 * frames up to and including the first HEADERS. `complete` says whether that HEADERS was reached.
 *
 * @example
 *   parseHttp2Preface(bytes).settings // [[1, 65536], [2, 0], [4, 6291456], [6, 262144]] for Chrome
 */
export function parseHttp2Preface(buf: Buffer): Http2Preface {
  const out: Http2Preface = { settings: [], windowUpdate: 0, priorities: [], complete: false };
  if (buf.length < H2_PREFACE.length || !buf.subarray(0, H2_PREFACE.length).equals(H2_PREFACE)) return out;
  let at = H2_PREFACE.length;
  let sawSettings = false;
  while (at + 9 <= buf.length) {
    const len = buf.readUIntBE(at, 3);
    const type = buf[at + 3];
    const flags = buf[at + 4];
    const stream = buf.readUInt32BE(at + 5) & 0x7fffffff;
    if (at + 9 + len > buf.length) break;
    const p = buf.subarray(at + 9, at + 9 + len);
    at += 9 + len;
    if (type === 0x4 && !(flags & 0x1) && !sawSettings) {
      sawSettings = true;
      for (let i = 0; i + 6 <= p.length; i += 6) out.settings.push([p.readUInt16BE(i), p.readUInt32BE(i + 2)]);
    } else if (type === 0x8 && stream === 0 && out.windowUpdate === 0) {
      out.windowUpdate = p.readUInt32BE(0) & 0x7fffffff;
    } else if (type === 0x2) {
      const dep = p.readUInt32BE(0);
      out.priorities.push({ stream, dependsOn: dep & 0x7fffffff, exclusive: dep >>> 31 === 1, weight: p[4] + 1 });
    } else if (type === 0x1) {
      if (flags & 0x20) {
        const pad = flags & 0x8 ? 1 : 0;
        const dep = p.readUInt32BE(pad);
        out.headersPriority = { dependsOn: dep & 0x7fffffff, exclusive: dep >>> 31 === 1, weight: p[pad + 4] + 1 };
      }
      out.complete = true;
      break;
    }
  }
  return out;
}

/**
 * The Akamai HTTP/2 fingerprint text: `settings|window update|priority frames|pseudo-header order`,
 * e.g. `1:65536;2:0;4:6291456;6:262144|15663105|0|m,a,s,p` for Chrome.
 *
 * @example
 *   akamaiFingerprint(conn.http2!, conn.requests[0].pseudoHeaderOrder)
 */
export function akamaiFingerprint(p: Http2Preface, pseudoHeaderOrder: string[]): string {
  const settings = p.settings.map(([k, v]) => `${k}:${v}`).join(';');
  const prio = p.priorities.length ? p.priorities.map((x) => `${x.stream}:${x.exclusive ? 1 : 0}:${x.dependsOn}:${x.weight}`).join(',') : '0';
  return `${settings}|${p.windowUpdate || '00'}|${prio}|${pseudoHeaderOrder.map((h) => h[1]).join(',')}`;
}

export interface SeenRequest {
  method: string;
  path: string;
  /** Header names in the order sent, lower-case, pseudo-headers excluded. */
  headerOrder: string[];
  /** Pseudo-headers in the order sent (HTTP/2 only), e.g. [':method', ':authority', ':scheme', ':path']. */
  pseudoHeaderOrder: string[];
  headers: Record<string, string>;
}

export interface SeenConnection {
  /** Undefined for plain-HTTP connections. */
  hello?: ClientHello;
  /** Negotiated ALPN ('h2', 'http/1.1') or false. */
  alpn: string | false;
  /** Set when the connection speaks HTTP/2; filled as the preface arrives. */
  http2?: Http2Preface;
  requests: SeenRequest[];
  /** The client's address as this listener saw it (a proxy's, when one is in between). */
  remoteAddress: string;
}

export type HandshakeHandler = (
  req: http.IncomingMessage | http2.Http2ServerRequest,
  res: http.ServerResponse | http2.Http2ServerResponse,
  conn: SeenConnection,
) => void;

export interface HandshakeListener {
  /** `https://127.0.0.1:<port>` (plain `http://` on the same port works too). */
  url: string;
  port: number;
  /** Every connection, in accept order. */
  connections: SeenConnection[];
  close(): Promise<void>;
}

/**
 * Starts the listener on 127.0.0.1 (or `host`). It offers ALPN `h2` and `http/1.1` unless told
 * otherwise, and answers with `handler` (default: 200 "ok"). Clients must trust `LOOPBACK_TLS.cert`
 * or skip verification.
 *
 * @example
 *   const wall = await handshakeListener(); t.after(() => wall.close());
 *   await get(wall.url); wall.connections[0].hello?.grease
 */
export async function handshakeListener(
  handler: HandshakeHandler = (_req, res) => res.end('ok'),
  opts: { host?: string; alpn?: string[] } = {},
): Promise<HandshakeListener> {
  const connections: SeenConnection[] = [];
  const sockets = new Set<net.Socket | tls.TLSSocket | Duplex>();
  const secureContext = tls.createSecureContext(LOOPBACK_TLS);
  const byStream = new WeakMap<object, SeenConnection>();
  const onRequest = (req: http.IncomingMessage | http2.Http2ServerRequest, res: http.ServerResponse | http2.Http2ServerResponse, conn: SeenConnection) => {
    const raw = req.rawHeaders;
    const pseudo: string[] = [];
    const order: string[] = [];
    const headers: Record<string, string> = {};
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = raw[i].toLowerCase();
      (name.startsWith(':') ? pseudo : order).push(name);
      if (!name.startsWith(':')) headers[name] = headers[name] === undefined ? raw[i + 1] : `${headers[name]}, ${raw[i + 1]}`;
    }
    conn.requests.push({ method: req.method ?? '', path: req.url ?? '', headerOrder: order, pseudoHeaderOrder: pseudo, headers });
    handler(req, res, conn);
  };
  const h1 = http.createServer((req, res) => onRequest(req, res, byStream.get(req.socket)!));
  let pendingH2: SeenConnection | undefined;
  const h2 = http2.createServer();
  h2.on('session', (session) => {
    byStream.set(session, pendingH2!);
    session.on('error', () => undefined);
  });
  h2.on('request', (req, res) => {
    const conn = req.stream.session ? byStream.get(req.stream.session) : undefined;
    // A stream whose session already closed (its client gone, seen on a loaded box): nobody to answer.
    if (!conn) return void req.stream.close();
    onRequest(req, res, conn);
  });

  // TCP_NODELAY, as real servers set it: with Nagle on, small writes wait for a delayed ACK (40 ms).
  const server = net.createServer({ noDelay: true }, (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let first = Buffer.alloc(0);
    const onData = (d: Buffer) => {
      first = Buffer.concat([first, d]);
      const missing = clientHelloMissing(first);
      if (missing > 0) return;
      socket.off('data', onData);
      socket.pause();
      socket.unshift(first);
      const conn: SeenConnection = { alpn: false, requests: [], remoteAddress: socket.remoteAddress ?? '' };
      connections.push(conn);
      if (missing < 0) {
        byStream.set(socket, conn);
        h1.emit('connection', socket);
        socket.resume();
        return;
      }
      try {
        conn.hello = parseClientHello(first);
      } catch {
        return void socket.destroy();
      }
      const secure = new tls.TLSSocket(socket, { isServer: true, secureContext, ALPNProtocols: opts.alpn ?? ['h2', 'http/1.1'] });
      sockets.add(secure);
      secure.on('error', () => socket.destroy());
      secure.on('close', () => sockets.delete(secure));
      secure.once('secure', () => {
        conn.alpn = secure.alpnProtocol ?? false;
        if (conn.alpn !== 'h2') {
          byStream.set(secure, conn);
          return void h1.emit('connection', secure);
        }
        conn.http2 = parseHttp2Preface(Buffer.alloc(0));
        pendingH2 = conn;
        h2.emit('connection', tap(secure, conn));
        pendingH2 = undefined;
      });
    };
    socket.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, opts.host ?? '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://${opts.host ?? '127.0.0.1'}:${port}`,
    port,
    connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        h1.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A duplex between the TLS socket and node's HTTP/2 server that copies the decrypted client bytes
 * aside until the preface (through the first HEADERS frame) has been read.
 */
function tap(secure: tls.TLSSocket, conn: SeenConnection): Duplex {
  let seen: Buffer | undefined = Buffer.alloc(0);
  const d = new Duplex({
    read() {
      secure.resume();
    },
    write(chunk: Buffer, _enc, cb) {
      secure.write(chunk, cb);
    },
    final(cb) {
      secure.end();
      cb();
    },
    destroy(err, cb) {
      secure.destroy();
      cb(err);
    },
  });
  secure.on('data', (chunk: Buffer) => {
    if (seen) {
      seen = Buffer.concat([seen, chunk]);
      conn.http2 = parseHttp2Preface(seen);
      if (conn.http2.complete || seen.length > 65536) seen = undefined;
    }
    if (!d.push(chunk)) secure.pause();
  });
  secure.on('end', () => d.push(null));
  secure.on('close', () => d.destroy());
  return d;
}
