/**
 * Bench support: a loopback "bot wall" and the loopback proxies in front of it.
 *
 * The wall (on `handshakeListener`, which reads each connection's raw ClientHello and HTTP/2
 * preface) judges every connection against the browser its User-Agent names: a Chromium UA must
 * come with GREASE, TLS_AES_128_GCM_SHA256 first, ALPN h2 and Chrome's pseudo-header order; a
 * Firefox UA with no GREASE, its own cipher order, a record size limit and m,p,a,s. It keeps a
 * token bucket per client IP. Violations get soft blocks: an incoherent connection an empty page or
 * a captcha redirect, a request over the bucket a 429 with Retry-After. An IP with `banAfter`
 * violations within a minute is banned (403 forever). Each proxy connects from its own 127.0.0.x address, so each
 * is one IP to the wall; some are banned from the start, some drop connections at random.
 */
import { spawn } from 'node:child_process';
import net from 'node:net';
import { handshakeListener, type HandshakeListener, type SeenConnection, type SeenRequest } from '../src/fetch/handshake.testkit.ts';

export interface WallOptions {
  /** Requests per second per IP, and the bucket size. */
  rps: number;
  burst: number;
  /** Violations within a minute that ban an IP. */
  banAfter: number;
  /** IPs banned before the run starts. */
  bannedAtStart: string[];
}

export interface WallStats {
  requests: number;
  served: number;
  /** Date.now() of the first and the last page served (0 before the first). */
  firstServedAt: number;
  lastServedAt: number;
  /** Pages served per client IP. */
  servedByIp: Map<string, number>;
  /** Gaps between pages served to one IP, ms (diagnostics). */
  gaps: number[];
  lastByIp: Map<string, number>;
  incoherent: number;
  rateViolations: number;
  bans: number;
  bannedIps: Set<string>;
}

type Verdict = 'ok' | string;

/** Is this connection (handshake + first request) the browser its headers name? */
export function coherent(conn: SeenConnection, r: SeenRequest): Verdict {
  const ua = r.headers['user-agent'] ?? '';
  const h = conn.hello;
  if (!h) return 'plain http';
  if (/Firefox\//.test(ua)) {
    if (h.grease) return 'firefox UA, GREASE in hello';
    if (h.ciphers[0] !== 0x1301) return 'firefox UA, cipher order';
    if (h.recordSizeLimit === undefined) return 'firefox UA, no record size limit';
    if (r.headers['sec-ch-ua'] !== undefined) return 'firefox UA with client hints';
    if (conn.alpn === 'h2' && r.pseudoHeaderOrder.join(',') !== ':method,:path,:authority,:scheme') return 'firefox UA, pseudo-header order';
    return 'ok';
  }
  if (/Chrome\//.test(ua)) {
    if (!h.grease) return 'chromium UA, no GREASE';
    if (h.ciphers[1] !== 0x1301) return 'chromium UA, cipher order';
    if (!h.alpn.includes('h2') || conn.alpn !== 'h2') return 'chromium UA without h2';
    if (!r.headers['sec-ch-ua']) return 'chromium UA without client hints';
    if (r.pseudoHeaderOrder.join(',') !== ':method,:authority,:scheme,:path') return 'chromium UA, pseudo-header order';
    return 'ok';
  }
  return 'unknown browser';
}

const t0 = performance.now();

export async function startWall(o: WallOptions): Promise<{ wall: HandshakeListener; stats: WallStats }> {
  const stats: WallStats = { requests: 0, served: 0, firstServedAt: 0, lastServedAt: 0, servedByIp: new Map(), gaps: [], lastByIp: new Map(), incoherent: 0, rateViolations: 0, bans: 0, bannedIps: new Set(o.bannedAtStart) };
  const buckets = new Map<string, { tokens: number; at: number }>();
  const violations = new Map<string, number[]>();
  /** BOTWALL_DEBUG: the last arrivals per IP (newest first), printed with each 429. */
  const arrivals = new Map<string, number[]>();
  const judged = new WeakMap<SeenConnection, Verdict>();
  const violate = (ip: string) => {
    const now = performance.now();
    const recent = (violations.get(ip) ?? []).filter((t) => now - t < 60_000);
    recent.push(now);
    violations.set(ip, recent);
    if (recent.length >= o.banAfter && !stats.bannedIps.has(ip)) {
      stats.bannedIps.add(ip);
      stats.bans++;
    }
  };
  const wall = await handshakeListener((req, res, conn) => {
    stats.requests++;
    const ip = conn.remoteAddress.replace(/^::ffff:/, '');
    if (stats.bannedIps.has(ip)) {
      res.writeHead(403, { 'content-type': 'text/html' });
      return void res.end('<title>Access Denied</title>');
    }
    const r = conn.requests[conn.requests.length - 1]!;
    let v = judged.get(conn);
    if (v === undefined) {
      v = coherent(conn, r);
      judged.set(conn, v);
      if (v !== 'ok') {
        stats.incoherent++;
        if (process.env.BOTWALL_DEBUG) console.error(`incoherent: ${v}: ${r.headers['user-agent']}`);
      }
    }
    if (v !== 'ok') {
      violate(ip);
      // Soft blocks: an empty page or a captcha redirect, never a plain refusal.
      if (stats.incoherent % 2) {
        res.writeHead(200, { 'content-type': 'text/html' });
        return void res.end('');
      }
      res.writeHead(302, { location: '/captcha?from=wall' });
      return void res.end();
    }
    const now = performance.now();
    if (process.env.BOTWALL_DEBUG) arrivals.set(ip, [now, ...(arrivals.get(ip) ?? [])].slice(0, 6));
    const b = buckets.get(ip) ?? { tokens: o.burst, at: now };
    b.tokens = Math.min(o.burst, b.tokens + ((now - b.at) / 1000) * o.rps);
    b.at = now;
    buckets.set(ip, b);
    if (b.tokens < 1) {
      stats.rateViolations++;
      if (process.env.BOTWALL_DEBUG) console.error(`429 ${ip} at ${(now / 1000).toFixed(2)} s, connection ${wall.connections.indexOf(conn)} (request ${conn.requests.length} on it), arrivals before (ms ago): ${(arrivals.get(ip) ?? []).map((t) => Math.round(now - t)).join(' ')}`);
      violate(ip);
      res.writeHead(429, { 'content-type': 'text/html', 'retry-after': '2' });
      return void res.end('<p>Too many requests</p>');
    }
    b.tokens -= 1;
    stats.served++;
    stats.servedByIp.set(ip, (stats.servedByIp.get(ip) ?? 0) + 1);
    const last = stats.lastByIp.get(ip);
    if (last !== undefined) stats.gaps.push(now - last);
    if (process.env.BOTWALL_DEBUG && last !== undefined && now - last > 900) console.error(`gap ${ip} ${Math.round(now - last)} ms at ${((now - t0) / 1000).toFixed(1)} s`);
    if (process.env.BOTWALL_DEBUG && last === undefined) console.error(`first page to ${ip} at ${((now - t0) / 1000).toFixed(1)} s`);
    stats.lastByIp.set(ip, now);
    stats.lastServedAt = Date.now();
    stats.firstServedAt ||= stats.lastServedAt;
    const q = new URL(req.url ?? '/', 'https://wall').searchParams.get('q') ?? '';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<html><body><div id="result" data-q="${q}">result for ${q}</div></body></html>`);
  });
  return { wall, stats };
}

export interface LoopbackProxy {
  url: string;
  ip: string;
  close(): Promise<void>;
}

/**
 * A CONNECT proxy listening on `ip` and connecting out from `ip` (so the wall sees `ip`). A flaky
 * one refuses the share `dropShare` of tunnels.
 */
export async function connectProxy(ip: string, dropShare = 0, random: () => number = Math.random): Promise<LoopbackProxy> {
  const sockets = new Set<net.Socket>();
  // TCP_NODELAY both ways, as real proxies set it: with Nagle on, each small write waits for the
  // peer's delayed ACK (40 ms on Linux) and every request looks 40 ms slower than it is.
  const server = net.createServer({ noDelay: true }, (client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    let head = Buffer.alloc(0);
    const onData = (d: Buffer) => {
      head = Buffer.concat([head, d]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      client.off('data', onData);
      const m = /^CONNECT ([^\s:]+):(\d+) HTTP/.exec(head.subarray(0, end).toString('latin1'));
      if (!m || random() < dropShare) return void client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      const up = net.connect({ host: m[1], port: Number(m[2]), localAddress: ip, noDelay: true }, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        const rest = head.subarray(end + 4);
        if (rest.length) up.write(rest);
        client.pipe(up).pipe(client);
      });
      sockets.add(up);
      up.on('close', () => sockets.delete(up));
      up.on('error', () => client.destroy());
      client.on('close', () => up.destroy());
    };
    client.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, ip, resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://${ip}:${port}`,
    ip,
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}

export interface SiteOptions {
  rps: number;
  burst: number;
  banAfter: number;
  /** Loopback proxies (127.0.0.10, .11, ...): the first `banned` banned from the start, the next `flaky` refusing `flakyShare` of tunnels. */
  proxies: number;
  banned: number;
  flaky: number;
  flakyShare: number;
}

/** What the site process tells the client: where the wall and the proxies are. */
export interface SiteReady {
  url: string;
  proxies: string[];
}

/** The wall's counts and the site process's CPU time. */
export interface SiteStats {
  bans: number;
  incoherent: number;
  rateViolations: number;
  served: number;
  /** Date.now() of the first and the last page served (the wall's view of the run). */
  firstServedAt: number;
  lastServedAt: number;
  /** Pages served per client IP (a proxy's address). */
  servedByIp: Record<string, number>;
  /** Gaps between pages served to one IP: 10th, 50th, 90th, 99th percentile, ms. */
  gapPercentiles: number[];
  cpuMs: number;
}

/**
 * The wall and its proxies in this process, driven by the client over IPC (bench/botwall-site.ts):
 * tells where they listen, answers 'stats', exits on 'close'.
 */
export async function serveSite(o: SiteOptions): Promise<void> {
  const ips = Array.from({ length: o.proxies }, (_, i) => `127.0.0.${10 + i}`);
  const { wall, stats } = await startWall({ rps: o.rps, burst: o.burst, banAfter: o.banAfter, bannedAtStart: ips.slice(0, o.banned) });
  const proxies = await Promise.all(ips.map((ip, i) => connectProxy(ip, i >= o.banned && i < o.banned + o.flaky ? o.flakyShare : 0)));
  const cpu0 = process.cpuUsage();
  process.on('message', (m) => {
    if (m === 'stats') {
      if (process.env.BOTWALL_DEBUG) for (const [ip, at] of stats.lastByIp) console.error(`last page to ${ip} at ${((at - t0) / 1000).toFixed(1)} s`);
      const cpu = process.cpuUsage(cpu0);
      const out: SiteStats = { bans: stats.bans, incoherent: stats.incoherent, rateViolations: stats.rateViolations, served: stats.served,
        firstServedAt: stats.firstServedAt, lastServedAt: stats.lastServedAt, servedByIp: Object.fromEntries(stats.servedByIp),
        gapPercentiles: [0.1, 0.5, 0.9, 0.99].map((q) => Math.round([...stats.gaps].sort((a, b) => a - b)[Math.floor(q * (stats.gaps.length - 1))] ?? 0)), cpuMs: (cpu.user + cpu.system) / 1000 };
      process.send!(out);
    } else if (m === 'close') {
      void Promise.all(proxies.map((p) => p.close())).then(() => wall.close()).then(() => process.exit(0));
    }
  });
  const ready: SiteReady = { url: wall.url, proxies: proxies.map((p) => p.url) };
  process.send!(ready);
}

/**
 * Starts the wall and its proxies in a process of their own (a real site and real proxies are other
 * machines: the wall's handshake parsing must not take the client's event loop, nor the client's
 * the wall's); resolves when they listen.
 */
export async function startSite(o: SiteOptions): Promise<{ ready: SiteReady; stats(): Promise<SiteStats>; close(): Promise<void> }> {
  const child = spawn(process.execPath, ['bin/run-ts.js', 'bench/botwall-site.ts', JSON.stringify(o)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: process.env });
  const next = <T>() => new Promise<T>((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`the site process exited (${code})`));
    child.once('exit', onExit);
    child.once('message', (m) => {
      child.off('exit', onExit);
      resolve(m as T);
    });
  });
  const ready = await next<SiteReady>();
  return {
    ready,
    stats: () => {
      const p = next<SiteStats>();
      child.send('stats');
      return p;
    },
    close: () => new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.send('close');
    }),
  };
}

/** What both bot-wall benches report of a run against the wall: completion, bans, coherence, and the
 *  wall time against the least the wall's per-IP limits allow. */
export interface WallOutcome {
  queries: number;
  completed: number;
  bans: number;
  incoherent: number;
  rate_violations: number;
  wall_s: number;
  least_s: number;
  wall_ratio: number;
}
