import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { emailValidatorAdapter, emailsFinderAdapter, isDisposableEmail, validateEmail } from './index.ts';
import { startPeers, type Peers } from './testing/peers.ts';

let peers: Peers;
before(async () => {
  peers = await startPeers();
});
after(() => peers.close());

test('adapter metadata follows the contract', () => {
  assert.equal(emailValidatorAdapter.kind, 'local');
  assert.equal(emailValidatorAdapter.endpoint, '/email-validator');
  assert.equal(emailsFinderAdapter.kind, 'local');
  assert.equal(emailsFinderAdapter.endpoint, '/emails-finder');
});

test('checkQuery: the validator refuses only empty queries; the finder needs a name and a domain', () => {
  assert.match(emailValidatorAdapter.checkQuery!(' ') ?? '', /empty/);
  assert.equal(emailValidatorAdapter.checkQuery!('not an address'), undefined);
  assert.match(emailsFinderAdapter.checkQuery!('acme.com') ?? '', /must be "<full name> <domain>"/);
  assert.match(emailsFinderAdapter.checkQuery!('Jane Doe nodot') ?? '', /not a mail domain/);
  assert.equal(emailsFinderAdapter.checkQuery!('Jane Doe acme.com'), undefined);
});

test('lookups use LookupContext.settings and return one record per query', async () => {
  await emailValidatorAdapter.warmUp?.();
  const [v] = await emailValidatorAdapter.lookup({ query: 'alice@example.test', params: {} }, { settings: peers.settings });
  assert.equal(v.query, 'alice@example.test');
  assert.equal(v.status, 'RECEIVING');
  assert.equal(v.status_details, 'SMTP validated');
  for (const k of ['valid_format', 'in_blacklist', 'valid_dns', 'valid_smtp'] as const) assert.equal(typeof v[k], 'boolean');
  const [f] = await emailsFinderAdapter.lookup({ query: 'John Smith acme.test', params: {} }, { settings: peers.settings });
  assert.equal(f.email, 'jsmith@acme.test');
});

test('the finder adapter throws invalid_query for a query checkQuery refuses', async () => {
  await assert.rejects(
    emailsFinderAdapter.lookup({ query: 'acme.com', params: {} }, { settings: peers.settings }),
    (e: { type?: string; retryable?: boolean }) => e.type === 'invalid_query' && e.retryable === false,
  );
});

test('enrichment helpers', async () => {
  assert.equal(isDisposableEmail('a@mailinator.com'), true);
  assert.equal((await validateEmail('nobody@example.test', peers.settings)).status, 'NOT_RECEIVING');
});
