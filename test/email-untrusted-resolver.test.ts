/**
 * A resolver that says NXDOMAIN to everything (a machine with no working DNS) is caught before its
 * word becomes a verdict (issue 26): validator and finder answer UNKNOWN with the reason, neither
 * bills it, `/health`'s notes say so; a resolver that resolves the names that must exist is believed.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { MailDns, MUST_EXIST, UNTRUSTED_RESOLVER } from '../src/lookups/email/dns.ts';
import { startLoopbackDns, type LoopbackDns } from '../src/lookups/email/testing/loopback.ts';
import { emailValidatorAdapter, emailsFinderAdapter } from '../src/lookups/email/adapters.ts';
import { healthNotes } from '../src/ops/health-notes.ts';

let liar: LoopbackDns;
let honest: LoopbackDns;
before(async () => {
  liar = await startLoopbackDns({}, { lying: true });
  honest = await startLoopbackDns({});
});
after(async () => { await liar.close(); await honest.close(); });

const settings = (dns: LoopbackDns) => ({ dnsServers: [dns.server], dnsTimeoutMs: 800, smtpPort: 1, allowPrivateTargets: true });

test('the validator does not believe an NXDOMAIN from a resolver that calls every name NXDOMAIN, and bills nothing', async () => {
  const [v] = await emailValidatorAdapter.lookup({ query: 'john.smith@gmail.com', params: {} }, { settings: settings(liar) });
  assert.equal(v.status, 'UNKNOWN');
  assert.ok(v.status_details.startsWith(UNTRUSTED_RESOLVER), v.status_details);
  assert.equal(emailValidatorAdapter.units!([v]), 0, 'not billed as a validation');
  assert.match(healthNotes()?.email_dns ?? '', /NXDOMAIN for every name/);
  const [f] = await emailsFinderAdapter.lookup({ query: 'John Smith gmail.com', params: {} }, { settings: settings(liar) });
  assert.equal(f.status, 'UNKNOWN');
  assert.ok(f.status_details.startsWith(UNTRUSTED_RESOLVER), f.status_details);
  assert.equal(emailsFinderAdapter.units!([f]), 0);
});

test('an honest resolver\'s NXDOMAIN is the verdict (billed), and clears the health note', async () => {
  const [v] = await emailValidatorAdapter.lookup({ query: 'jane@no-such-domain.test', params: {} }, { settings: settings(honest) });
  assert.equal(v.status, 'NOT_RECEIVING');
  assert.equal(v.status_details, 'domain does not exist (NXDOMAIN)');
  assert.equal(emailValidatorAdapter.units!([v]), 1);
  assert.equal(healthNotes()?.email_dns, undefined);
});

test('the check asks the names that must exist once, only after an NXDOMAIN, and is cached', async () => {
  const d = new MailDns({ servers: [liar.server], timeoutMs: 800, cacheTtlMs: 60_000 });
  const asked = () => liar.queries.filter((q) => MUST_EXIST.some((n) => q.startsWith(`${n} `))).length;
  const n0 = asked();
  const [a, b] = await Promise.all([d.route('one.test'), d.route('two.test')]);
  assert.equal(a.kind, 'untrusted_resolver');
  assert.equal(b.kind, 'untrusted_resolver');
  assert.equal(asked() - n0, MUST_EXIST.length, 'one check for both');
  assert.equal((await d.route('three.test')).kind, 'untrusted_resolver');
  assert.equal(asked() - n0, MUST_EXIST.length, 'reused while fresh');
  // Not cached as a route: once DNS works, the same domain is asked again.
  assert.equal(liar.queries.filter((q) => q === 'one.test MX').length, 1);
  assert.equal((await d.route('one.test')).kind, 'untrusted_resolver');
  assert.equal(liar.queries.filter((q) => q === 'one.test MX').length, 2);
});

test('names that must exist answering nothing at all (time-outs) do not make an NXDOMAIN believable either', async () => {
  const silent = await startLoopbackDns(Object.fromEntries(MUST_EXIST.map((n) => [n, { silent: true }])));
  try {
    const d = new MailDns({ servers: [silent.server], timeoutMs: 300, cacheTtlMs: 60_000 });
    const r = await d.route('gone.test');
    assert.equal(r.kind, 'untrusted_resolver');
    assert.match(r.kind === 'untrusted_resolver' ? r.detail : '', /resolves no name that must exist.*ETIMEOUT/);
  } finally { await silent.close(); }
});

test('through the API: the request ends in Success with UNKNOWN and the reason, usage 0; /health notes it', { timeout: 30_000 }, async () => {
  const { startHarness } = await import('./support/harness.ts');
  const { registryOfAdapters } = await import('../src/sources/registry.ts');
  const h = await startHarness({ adapters: registryOfAdapters([emailValidatorAdapter]), settings: { lookup: settings(liar) } });
  try {
    const r = await h.json('/email-validator?query=john.smith@gmail.com&async=false');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.status, 'Success');
    const [rec] = r.body.data[0];
    assert.equal(rec.status, 'UNKNOWN');
    assert.ok(rec.status_details.startsWith(UNTRUSTED_RESOLVER));
    assert.equal((await h.svc.ctx.store.getRequest(r.body.id))!.usage, 0, 'nothing billed');
    const health = await h.json('/health', { key: null });
    assert.match(health.body.notes?.email_dns ?? '', /NXDOMAIN for every name/);
  } finally { await h.close(); }
});
