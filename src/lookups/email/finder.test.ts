import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { EmailVerifier } from './verifier.ts';
import { Value } from '@sinclair/typebox/value';
import { finderRecord } from '../../contract/records/emails-finder.ts';
import { findWith, findEmail, parseFinderQuery } from './finder.ts';
import { startPeers, type Peers } from './testing/peers.ts';

let peers: Peers;
before(async () => {
  peers = await startPeers();
});
after(() => peers.close());
const find = async (query: string, extra: Record<string, unknown> = {}) => {
  const r = await findWith(new EmailVerifier({ ...peers.settings, ...extra }), query);
  // Every record the finder makes is the declared /emails-finder record.
  assert.deepEqual([...Value.Errors(finderRecord, r)].map((e) => `${e.path}: ${e.message}`), []);
  return r;
};

test('the query is "<full name> <domain>", the domain being the last token', () => {
  const q = parseFinderQuery('  Dr. José García   https://www.Acme.test/about ');
  assert.ok(q.ok);
  assert.equal(q.fullName, 'Dr. José García');
  assert.deepEqual(q.name, { first: 'jose', last: 'garcia' });
  assert.equal(q.domain, 'acme.test');
  for (const bad of ['', 'acme.test', 'Jane Doe', 'Jane Doe localhost', 'Jane Doe [127.0.0.1]', '李 acme.test']) {
    const r = parseFinderQuery(bad);
    assert.equal(r.ok, false, bad);
    assert.ok(!r.ok && r.message.length > 10);
  }
});

test('candidates are tried in order and the first accepted one wins (flast)', async () => {
  const r = await find('John Smith acme.test');
  assert.equal(r.status, 'RECEIVING');
  assert.equal(r.email, 'jsmith@acme.test');
  assert.equal(r.pattern, 'flast');
  assert.equal(r.verified, true);
  assert.deepEqual(r.candidates_tried, ['john.smith@acme.test', 'john@acme.test', 'jsmith@acme.test']);
  assert.equal(r.is_catch_all, false);
  assert.deepEqual(r.mx, ['mx1.example.test']);
  assert.match(r.status_details, /SMTP validated \(flast, after 3 tried\)/);
  // Nothing after the accepted candidate was asked.
  assert.ok(!peers.smtp.rcpts.includes('johnsmith@acme.test'));
  assert.equal(peers.smtp.dataCommands(), 0);
});

test('accents are normalised and first.last is found first', async () => {
  const r = await find('María García acme.test');
  assert.equal(r.email, 'maria.garcia@acme.test');
  assert.equal(r.pattern, 'first.last');
  assert.deepEqual(r.candidates_tried, ['maria.garcia@acme.test']);
});

test('a single name tries only the first-name pattern', async () => {
  const r = await find('Prince acme.test');
  assert.equal(r.email, 'prince@acme.test');
  assert.equal(r.last_name, null);
});

test('no candidate accepted: NOT_RECEIVING after trying them all, across sessions', async () => {
  const r = await find('Nobody Here acme.test');
  assert.equal(r.status, 'NOT_RECEIVING');
  assert.equal(r.email, null);
  assert.equal(r.verified, false);
  assert.equal(r.candidates_tried.length, 16);
  assert.equal(new Set(r.candidates_tried).size, 16);
  assert.match(r.status_details, /no candidate address was accepted \(16 tried\)/);
});

test('catch-all domain: the best guess, marked unverified', async () => {
  const r = await find('Jane Doe catchall.test');
  assert.equal(r.status, 'CATCH_ALL');
  assert.equal(r.email, 'jane.doe@catchall.test');
  assert.equal(r.pattern, 'first.last');
  assert.equal(r.verified, false);
  assert.equal(r.is_catch_all, true);
  assert.deepEqual(r.candidates_tried, []);
});

test('greylisting stops the search as UNKNOWN', async () => {
  const r = await find('Grey Mouse acme.test');
  assert.equal(r.status, 'UNKNOWN');
  assert.equal(r.email, null);
  assert.match(r.status_details, /greylisted .*451/);
});

test('DNS answers end the search early', async () => {
  assert.equal((await find('Jane Doe nowhere.test')).status, 'NOT_RECEIVING');
  assert.match((await find('Jane Doe nullmx.test')).status_details, /null MX/);
  assert.match((await find('Jane Doe silent.test')).status_details, /DNS lookup failed/);
  assert.match((await find('Jane Doe down.test', { smtpPort: 25 })).status_details, /port 25 may be blocked/);
  assert.equal((await find('Jane Doe mailinator.com')).status, 'DISPOSABLE');
});

test('a stalled server ends as UNKNOWN with the stage named', async () => {
  const r = await find('Slow Poke stall.test');
  assert.equal(r.status, 'UNKNOWN');
  assert.match(r.status_details, /no answer at banner/);
});

test('an invalid query gives an INVALID_FORMAT record, never a throw', async () => {
  const r = await findEmail('nodomain', peers.settings);
  assert.equal(r.status, 'INVALID_FORMAT');
  assert.equal(r.email, null);
  assert.match(r.status_details, /<full name> <domain>/);
});
