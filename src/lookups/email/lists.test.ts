import { test } from 'node:test';
import assert from 'node:assert/strict';
import { disposableHit, isFreeProvider, isRoleAccount, listSizes } from './lists.ts';
import { isDisposableEmail } from './disposable.ts';
import { suggestDomain, didYouMean } from './suggest.ts';

test('disposable domains match on either list, subdomains included', () => {
  assert.deepEqual(disposableHit('mailinator.com'), { matched: 'mailinator.com', list: 'disposable-email-domains-js' });
  assert.deepEqual(disposableHit('foo.bar.mailinator.com'), { matched: 'mailinator.com', list: 'disposable-email-domains-js' });
  // Only on the wider list.
  const wideOnly = disposableHit('sub.000email.com');
  assert.equal(wideOnly?.list, 'mailchecker');
  assert.equal(disposableHit('example.com'), null);
  assert.equal(disposableHit('gmail.com'), null);
  assert.equal(disposableHit('com'), null);
});

test('a wider-list hit on a common provider the base list does not know is not counted', () => {
  // tom.com is a Chinese webmail provider that mailchecker lists; email-providers calls it common.
  assert.equal(disposableHit('tom.com'), null);
  // Registry-like names on the wider list do not drag every customer domain with them.
  assert.equal(disposableHit('mybusiness.pp.ua'), null);
});

test('isDisposableEmail reads the domain of an address', () => {
  assert.equal(isDisposableEmail('someone@sub.mailinator.com'), true);
  assert.equal(isDisposableEmail('Someone <x@YOPMAIL.com>'), true);
  assert.equal(isDisposableEmail('jane@gmail.com'), false);
  assert.equal(isDisposableEmail('not an address'), false);
  assert.equal(isDisposableEmail(''), false);
});

test('free providers exclude disposable ones', () => {
  assert.equal(isFreeProvider('gmail.com'), true);
  assert.equal(isFreeProvider('yahoo.com'), true);
  assert.equal(isFreeProvider('mailinator.com'), false, 'listed in common.json but disposable');
  assert.equal(isFreeProvider('acme-corp.com'), false);
});

test('role accounts are recognised, ignoring +tags and case', () => {
  assert.equal(isRoleAccount('info'), true);
  assert.equal(isRoleAccount('Sales'), true);
  assert.equal(isRoleAccount('noreply'), true);
  assert.equal(isRoleAccount('support+web'), true);
  assert.equal(isRoleAccount('jane.doe'), false);
});

test('list sizes are what the packages ship', () => {
  const s = listSizes();
  assert.ok(s.disposableBase > 5000);
  assert.ok(s.disposableWide > s.disposableBase);
  assert.ok(s.freeProviders > 100);
  assert.ok(s.roles > 500);
});

test('typo hints: one edit from a big webmail domain, or a mistyped TLD', () => {
  assert.equal(suggestDomain('gmial.com'), 'gmail.com');
  assert.equal(suggestDomain('hotmial.com'), 'hotmail.com');
  assert.equal(suggestDomain('yaho.com'), 'yahoo.com');
  assert.equal(suggestDomain('gmail.con'), 'gmail.com');
  assert.equal(suggestDomain('aol.con'), 'aol.com');
  assert.equal(suggestDomain('gmail.com'), null);
  assert.equal(suggestDomain('aon.com'), null, 'short domains: TLD typos only');
  assert.equal(suggestDomain('mail.com'), null, 'a real provider is never corrected');
  assert.equal(suggestDomain('acme-corp.com'), null);
  assert.equal(didYouMean('jane', 'outlok.com'), 'jane@outlook.com');
});
