import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SignedInPool, signedInFromEnv, signedOutAnswer } from './signed-in.ts';
import { healthNotes, setHealthNote } from '../ops/health-notes.ts';

test('accounts come one a line from MAPS_COOKIES and MAPS_COOKIES_FILE; a bad line is named by its place, never its text', () => {
  const s = signedInFromEnv({ MAPS_COOKIES: '__Secure-1PSID=a; __Secure-1PSIDTS=b\n\n# a comment', MAPS_COOKIES_FILE: '/x' }, () => 'SID=c\n');
  assert.deepEqual(s.accounts.map((a) => a.label), ['account-1', 'account-2']);
  assert.deepEqual(s.hosts, ['www.google.com']);
  assert.throws(() => signedInFromEnv({ MAPS_COOKIES: 'secretjunk' }), (e: Error) => /account 1 is not a Cookie header/.test(e.message) && !e.message.includes('secretjunk'));
  assert.deepEqual(signedInFromEnv({}).accounts, []);
});

test('a work item keeps its account while healthy; a benched one is skipped, named on /health, and none is left at last', () => {
  let now = 0;
  const pool = new SignedInPool(signedInFromEnv({ MAPS_COOKIES: 'SID=a\nSID=b' }), undefined, () => now);
  assert.equal(pool.covers('https://www.google.com/maps/rpc/listugcposts'), true);
  assert.equal(pool.covers('http://www.google.com/maps'), false, 'https only');
  assert.equal(pool.covers('https://example.com/'), false);
  const a = pool.pick('w1')!;
  assert.equal(pool.pick('w1'), a);
  pool.bench(a, 'HTTP 401 (signed out or expired)');
  assert.match(healthNotes()?.[`signed_in:${a.label}`] ?? '', /benched: HTTP 401/);
  const b = pool.pick('w1')!;
  assert.notEqual(b.label, a.label);
  pool.bench(b, 'a sign-in page');
  assert.equal(pool.pick('w1'), undefined);
  assert.equal(pool.healthy(), 0);
  now += 7 * 3_600_000; // the bench ends (6 h by default)
  assert.equal(pool.healthy(), 2);
  assert.equal(healthNotes()?.[`signed_in:${a.label}`], undefined);
  setHealthNote('signed_in:account-1', null); setHealthNote('signed_in:account-2', null);
});

test('signed out answers: 401, 403, the sign-in host, a sign-in page; data is not', () => {
  assert.match(signedOutAnswer({ status: 401, url: 'https://www.google.com/x', body: '' })!, /401/);
  assert.match(signedOutAnswer({ status: 302, url: 'https://accounts.google.com/ServiceLogin?continue=x', body: '' })!, /sign-in page/);
  assert.match(signedOutAnswer({ status: 200, url: 'https://www.google.com/x', body: '<html><title>Sign in - Google Accounts</title>' })!, /sign-in page/);
  assert.equal(signedOutAnswer({ status: 200, url: 'https://www.google.com/x', body: ")]}'\n[null,\"Sign in\"]" }), null);
});
