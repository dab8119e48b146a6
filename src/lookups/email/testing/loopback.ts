/**
 * Real DNS and SMTP peers on 127.0.0.x for tests and benchmarks (never used by the service itself):
 * a dns2 server answering from a zone map, an smtp-server whose RCPT answers depend on the
 * recipient, and a server that accepts TCP connections and never speaks.
 */
import { createRequire } from 'node:module';
import { createServer, type Server, type Socket } from 'node:net';

import { MUST_EXIST } from '../dns.ts';

const require = createRequire(import.meta.url);
// dns2@3.0.0 (3.1.x needs Node 22) and smtp-server are dev dependencies.
const dns2 = require('dns2') as typeof import('dns2');
const { SMTPServer } = require('smtp-server') as typeof import('smtp-server');

export interface ZoneEntry {
  MX?: Array<{ exchange: string; priority: number }>;
  A?: string[];
  AAAA?: string[];
  /** Never answer queries for this name (the resolver times out). */
  silent?: boolean;
  /** Answer SERVFAIL. */
  servfail?: boolean;
}
export type Zone = Record<string, ZoneEntry>;

export interface LoopbackDns {
  /** 'host:port' for the `dnsServers` setting. */
  server: string;
  /** Queries received, as 'NAME TYPE'. */
  queries: string[];
  close(): Promise<void>;
}

/**
 * A DNS server on 127.0.0.1 (random UDP+TCP port) answering from `zone`; unknown names are NXDOMAIN.
 * @example const dns = await startLoopbackDns({ 'example.test': { MX: [{ exchange: 'mx.example.test', priority: 10 }] } });
 */
export async function startLoopbackDns(zone: Zone, o: { lying?: boolean } = {}): Promise<LoopbackDns> {
  // The names the validator asks before it believes an NXDOMAIN exist here too, unless the test wants
  // a resolver that calls every name NXDOMAIN.
  if (!o.lying) zone = { ...Object.fromEntries(MUST_EXIST.map((n) => [n, { MX: [{ exchange: `mx.${n}`, priority: 10 }] }])), ...zone };
  const { Packet } = dns2;
  const queries: string[] = [];
  const typeName: Record<number, string> = { [Packet.TYPE.A]: 'A', [Packet.TYPE.AAAA]: 'AAAA', [Packet.TYPE.MX]: 'MX' };
  const server = dns2.createServer({
    udp: true,
    tcp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [q] = request.questions;
      const name = q.name.toLowerCase().replace(/\.$/, '');
      queries.push(`${name} ${typeName[q.type] ?? q.type}`);
      const rec = zone[name];
      if (rec?.silent) return;
      if (!rec) {
        response.header.rcode = 3; // NXDOMAIN
        return send(response);
      }
      if (rec.servfail) {
        response.header.rcode = 2;
        return send(response);
      }
      const base = { name: q.name, class: Packet.CLASS.IN, ttl: 60 };
      if (q.type === Packet.TYPE.MX) {
        for (const m of rec.MX ?? []) {
          response.answers.push({ ...base, type: Packet.TYPE.MX, exchange: m.exchange, priority: m.priority } as never);
        }
      }
      if (q.type === Packet.TYPE.A) {
        for (const a of rec.A ?? []) response.answers.push({ ...base, type: Packet.TYPE.A, address: a } as never);
      }
      if (q.type === Packet.TYPE.AAAA) {
        for (const a of rec.AAAA ?? []) response.answers.push({ ...base, type: Packet.TYPE.AAAA, address: a } as never);
      }
      send(response);
    },
  });
  const addrs = await server.listen({ udp: { port: 0, address: '127.0.0.1' }, tcp: { port: 0, address: '127.0.0.1' } });
  const udp = (addrs as unknown as { udp: { port: number } }).udp;
  return {
    server: `127.0.0.1:${udp.port}`,
    queries,
    close: async () => {
      await server.close();
    },
  };
}

export interface SmtpBehaviour {
  /** Addresses (lower-case) accepted with 250. */
  mailboxes?: Iterable<string>;
  /** Domains where every recipient is accepted. */
  catchAllDomains?: Iterable<string>;
  /** Recipients whose local part starts with this get 451 (greylisting). */
  greylistPrefix?: string;
  /** Recipients whose local part starts with this get 550 5.7.1 (policy block). */
  policyPrefix?: string;
  /** Recipients whose local part starts with this never get an answer. */
  stallPrefix?: string;
  /** Extra delay before each connection is greeted (on top of smtp-server's own 100 ms). */
  connectDelayMs?: number;
  /** Refuse the null sender with 550 at MAIL FROM. */
  refuseNullSender?: boolean;
  /**
   * Holds each session's first RCPT answer until `sessions` sessions of its domain are open at once
   * (or `deadlineMs` passes), so a concurrency test sees a cap reached whatever the box's scheduling:
   * without it, a loaded box may run the sessions one after the other and "two overlapped" is luck.
   * The deadline only keeps a client that never opens that many from hanging (its peak shows it).
   */
  holdUntilOpen?: { sessions: number; deadlineMs: number };
}

export interface LoopbackSmtp {
  host: string;
  port: number;
  /** Connections accepted so far. */
  connections(): number;
  /** Sessions open right now, and the most seen at once, per recipient domain. */
  peakPerDomain: Map<string, number>;
  /** Sessions `holdUntilOpen` let go at its deadline rather than because the count was reached. */
  releasedByDeadline(): number;
  /** Every RCPT address received, in order. */
  rcpts: string[];
  /** Every MAIL FROM address received. */
  senders: string[];
  /** The EHLO/HELO name of every session that reached MAIL FROM. */
  helos: string[];
  /** Number of DATA commands seen (must stay 0). */
  dataCommands(): number;
  close(): Promise<void>;
}

/**
 * An smtp-server on `host` (127.0.0.1 by default) with recipient-dependent answers.
 * @example const smtp = await startLoopbackSmtp({ mailboxes: ['alice@example.test'] });
 */
export async function startLoopbackSmtp(b: SmtpBehaviour, host = '127.0.0.1', port = 0): Promise<LoopbackSmtp> {
  const mailboxes = new Set([...(b.mailboxes ?? [])].map((x) => x.toLowerCase()));
  const catchAll = new Set([...(b.catchAllDomains ?? [])].map((x) => x.toLowerCase()));
  let connections = 0;
  let data = 0;
  const rcpts: string[] = [];
  const senders: string[] = [];
  const helos: string[] = [];
  const openPerDomain = new Map<string, number>();
  const peakPerDomain = new Map<string, number>();
  const sessionDomain = new Map<string, string>();
  const codeError = (code: number, message: string): Error => Object.assign(new Error(message), { responseCode: code });
  // holdUntilOpen: per domain, the sessions waiting for the count to be reached.
  const held = new Map<string, Set<() => void>>();
  let releasedByDeadline = 0;
  const holdUntilOpen = (domain: string, open: number, then: () => void): void => {
    const h = b.holdUntilOpen!;
    const waiting = held.get(domain) ?? new Set<() => void>();
    held.set(domain, waiting);
    const go = () => {
      clearTimeout(deadline);
      waiting.delete(go);
      then();
    };
    const deadline = setTimeout(() => {
      releasedByDeadline++;
      go();
    }, h.deadlineMs);
    waiting.add(go);
    if (open >= h.sessions) for (const g of [...waiting]) g();
  };
  const answerRcpt = (a: string, local: string, domain: string, cb: (err?: Error | null) => void): void => {
    if (b.stallPrefix && local.startsWith(b.stallPrefix)) return; // never answer
    if (b.greylistPrefix && local.startsWith(b.greylistPrefix)) return cb(codeError(451, '4.7.1 Greylisted, try again later'));
    if (b.policyPrefix && local.startsWith(b.policyPrefix)) return cb(codeError(550, '5.7.1 Client host blocked by policy'));
    if (catchAll.has(domain) || mailboxes.has(a)) return cb();
    cb(codeError(550, '5.1.1 User unknown'));
  };

  const server = new SMTPServer({
    disabledCommands: ['AUTH', 'STARTTLS'],
    disableReverseLookup: true,
    logger: false,
    name: 'mx.loopback.test',
    onConnect(_session, cb) {
      connections++;
      if (b.connectDelayMs) setTimeout(() => cb(), b.connectDelayMs);
      else cb();
    },
    onMailFrom(address, session, cb) {
      senders.push(address.address);
      helos.push(String(session.hostNameAppearsAs));
      if (b.refuseNullSender && address.address === '') return cb(codeError(550, '5.7.1 Null sender refused'));
      cb();
    },
    onRcptTo(address, session, cb) {
      const a = address.address.toLowerCase();
      rcpts.push(a);
      const [local, domain] = [a.slice(0, a.lastIndexOf('@')), a.slice(a.lastIndexOf('@') + 1)];
      if (!sessionDomain.has(session.id)) {
        sessionDomain.set(session.id, domain);
        const open = (openPerDomain.get(domain) ?? 0) + 1;
        openPerDomain.set(domain, open);
        peakPerDomain.set(domain, Math.max(open, peakPerDomain.get(domain) ?? 0));
        if (b.holdUntilOpen) return holdUntilOpen(domain, open, () => answerRcpt(a, local, domain, cb));
      }
      answerRcpt(a, local, domain, cb);
    },
    onData(stream, _session, cb) {
      data++;
      stream.resume();
      stream.on('end', () => cb());
    },
    onClose(session) {
      const d = sessionDomain.get(session.id);
      if (d) {
        openPerDomain.set(d, (openPerDomain.get(d) ?? 1) - 1);
        sessionDomain.delete(session.id);
      }
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const addr = server.server.address() as { port: number };
  return {
    host,
    port: addr.port,
    connections: () => connections,
    peakPerDomain,
    releasedByDeadline: () => releasedByDeadline,
    rcpts,
    senders,
    helos,
    dataCommands: () => data,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A TCP server that accepts connections and never sends a byte (a stalled mail server).
 * @example const silent = await startSilentServer('127.0.0.3', smtp.port);
 */
export async function startSilentServer(host: string, port: number): Promise<{ close(): Promise<void>; accepted(): number }> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server: Server = createServer((s) => {
    accepted++;
    sockets.add(s);
    s.on('error', () => {});
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    accepted: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
