/**
 * The constructed loopback world the e-mail tests and the benchmark share: one DNS zone, a real
 * SMTP server on 127.0.0.1, a silent server on 127.0.0.3 (same port), nothing on 127.0.0.2.
 */
import { startLoopbackDns, startLoopbackSmtp, startSilentServer, type LoopbackDns, type LoopbackSmtp, type SmtpBehaviour, type Zone } from './loopback.ts';

/** Constructed zone. Every mail host resolves to a 127.0.0.x address. */
export const CONSTRUCTED_ZONE: Zone = {
  'example.test': { MX: [{ exchange: 'mx2.example.test', priority: 20 }, { exchange: 'mx1.example.test', priority: 10 }] },
  'mx1.example.test': { A: ['127.0.0.1'] },
  'mx2.example.test': { A: ['127.0.0.1'] },
  'catchall.test': { MX: [{ exchange: 'mx1.example.test', priority: 5 }] },
  'implicit.test': { A: ['127.0.0.1'] },
  'nullmx.test': { MX: [{ exchange: '', priority: 0 }] },
  'silent.test': { silent: true },
  'servfail.test': { servfail: true },
  'empty.test': {},
  'failover.test': { MX: [{ exchange: 'dead.failover.test', priority: 10 }, { exchange: 'mx1.example.test', priority: 20 }] },
  'dead.failover.test': { A: ['127.0.0.2'] },
  'down.test': { MX: [{ exchange: 'dead.failover.test', priority: 10 }, { exchange: 'gone.down.test', priority: 20 }] },
  'stall.test': { MX: [{ exchange: 'stall.example.test', priority: 10 }] },
  'stall.example.test': { A: ['127.0.0.3'] },
  'acme.test': { MX: [{ exchange: 'mx1.example.test', priority: 10 }] },
  'utf8.test': { MX: [{ exchange: 'mx1.example.test', priority: 10 }] },
};

/** Constructed mailboxes. */
export const CONSTRUCTED_BEHAVIOUR: SmtpBehaviour = {
  mailboxes: ['alice@example.test', 'bob@implicit.test', 'carol@failover.test', 'jsmith@acme.test', 'maria.garcia@acme.test', 'prince@acme.test'],
  catchAllDomains: ['catchall.test'],
  greylistPrefix: 'grey',
  policyPrefix: 'blocked',
  stallPrefix: 'slow',
};

export interface Peers {
  dns: LoopbackDns;
  smtp: LoopbackSmtp;
  silentAccepted(): number;
  /** Settings pointing the checks at these peers (short timeouts). */
  settings: Record<string, unknown>;
  close(): Promise<void>;
}

/**
 * Starts the constructed world.
 * @example const peers = await startPeers(); ... await peers.close();
 */
export async function startPeers(behaviour: SmtpBehaviour = CONSTRUCTED_BEHAVIOUR, zone: Zone = CONSTRUCTED_ZONE): Promise<Peers> {
  const dns = await startLoopbackDns(zone);
  const smtp = await startLoopbackSmtp(behaviour);
  const silent = await startSilentServer('127.0.0.3', smtp.port);
  return {
    dns,
    smtp,
    silentAccepted: silent.accepted,
    settings: {
      dnsServers: [dns.server],
      dnsTimeoutMs: 1000,
      smtpPort: smtp.port,
      smtpTimeoutMs: 1500,
      heloName: 'probe.trawl.test',
      cacheTtlMs: 60_000,
      // Every peer is on loopback, which the SSRF guard refuses by default (see ssrf.test.ts).
      allowPrivateTargets: true,
    },
    close: async () => {
      await silent.close();
      await smtp.close();
      await dns.close();
    },
  };
}
