/**
 * The e-mail probes pass the SSRF guard: a mail exchanger (MX, implicit MX, IP-literal MX) that
 * resolves to loopback, private, link-local or metadata addresses is refused like any other target,
 * for `/email-validator` and `/emails-finder` alike, unless the operator allows private targets.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { EmailVerifier } from './verifier.ts';
import { validateWith } from './validate.ts';
import { findWith } from './finder.ts';
import { emailsFinderAdapter } from './adapters.ts';
import { startPeers, CONSTRUCTED_ZONE, type Peers } from './testing/peers.ts';

let peers: Peers;
before(async () => {
  peers = await startPeers(undefined, {
    ...CONSTRUCTED_ZONE,
    'literal.test': { MX: [{ exchange: '127.0.0.1', priority: 10 }] },
    'metadata.test': { MX: [{ exchange: 'meta.metadata.test', priority: 10 }] },
    'meta.metadata.test': { A: ['169.254.169.254'] },
  });
});
after(() => peers.close());

/** The loopback peers' settings as production has them: private targets not allowed. */
const guarded = (extra: Record<string, unknown> = {}) => new EmailVerifier({ ...peers.settings, allowPrivateTargets: false, ...extra });

test('an MX, an implicit MX and an IP-literal MX on loopback are refused without a connection', async () => {
  const before = peers.smtp.connections();
  for (const address of ['alice@example.test', 'bob@implicit.test', 'x@literal.test', 'x@metadata.test']) {
    const r = await validateWith(guarded(), address);
    assert.equal(r.status, 'UNKNOWN', address);
    assert.equal(r.valid_smtp, false);
    assert.match(r.status_details, /not an allowed target/, address);
    // The record names the host, never the address it resolved to (the literal MX is its own name).
    if (address !== 'x@literal.test') assert.doesNotMatch(r.status_details, /127\.0\.0\.1|169\.254/, address);
  }
  assert.equal(peers.smtp.connections(), before, 'no SMTP session reached the loopback listener');
});

test('/emails-finder is refused the same way', async () => {
  const before = peers.smtp.connections();
  const r = await findWith(guarded(), 'John Smith acme.test');
  assert.equal(r.email, null);
  assert.match(r.status_details, /not an allowed target/);
  const [viaAdapter] = await emailsFinderAdapter.lookup({ query: 'John Smith acme.test', params: {} }, { settings: { ...peers.settings, allowPrivateTargets: false } });
  assert.equal(viaAdapter.verified, false);
  assert.equal(peers.smtp.connections(), before);
});

test('the operator opens private targets by switch or by allow list (CIDR or host name)', async () => {
  assert.equal((await validateWith(guarded({ allowPrivateTargets: true }), 'alice@example.test')).status, 'RECEIVING');
  assert.equal((await validateWith(guarded({ allowedTargets: ['127.0.0.0/8'] }), 'alice@example.test')).status, 'RECEIVING');
  assert.equal((await validateWith(guarded({ allowedTargets: ['mx1.example.test'] }), 'alice@example.test')).status, 'RECEIVING');
  assert.equal((await validateWith(guarded({ allowedTargets: ['10.0.0.0/8'] }), 'alice@example.test')).status, 'UNKNOWN');
});
