import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_EMAIL_SETTINGS, resolveEmailSettings } from './settings.ts';

test('defaults: system DNS, port 25, null sender', () => {
  const s = resolveEmailSettings({});
  assert.equal(s.dnsServers, null);
  assert.equal(s.smtpPort, 25);
  assert.equal(s.mailFrom, '');
  assert.equal(s.perDomainConcurrency, DEFAULT_EMAIL_SETTINGS.perDomainConcurrency);
  assert.match(s.heloName, /^[A-Za-z0-9.-]+$/);
  assert.deepEqual(resolveEmailSettings(undefined), s);
});

test('settings are read from the bag, strings included, unknown keys ignored', () => {
  const s = resolveEmailSettings({
    dnsServers: '127.0.0.1:5353, 127.0.0.2',
    smtpPort: '2525',
    smtpTimeoutMs: 1500,
    heloName: 'probe.example.org',
    mailFrom: 'bounce@example.org',
    perDomainConcurrency: 3,
    cacheTtlMs: 0,
    geocoderUrl: 'http://ignored',
  });
  assert.deepEqual(s.dnsServers, ['127.0.0.1:5353', '127.0.0.2']);
  assert.equal(s.smtpPort, 2525);
  assert.equal(s.smtpTimeoutMs, 1500);
  assert.equal(s.heloName, 'probe.example.org');
  assert.equal(s.mailFrom, 'bounce@example.org');
  assert.equal(s.perDomainConcurrency, 3);
  assert.equal(s.cacheTtlMs, 0);
});

test('a wrong value is a TypeError naming the setting', () => {
  assert.throws(() => resolveEmailSettings({ smtpPort: 70000 }), /smtpPort/);
  assert.throws(() => resolveEmailSettings({ smtpPort: 'abc' }), /smtpPort/);
  assert.throws(() => resolveEmailSettings({ dnsServers: [] }), /dnsServers/);
  assert.throws(() => resolveEmailSettings({ perDomainConcurrency: 0 }), /perDomainConcurrency/);
  assert.throws(() => resolveEmailSettings({ mailFrom: 'a@b.c>\r\nDATA' }), /mailFrom/);
  assert.throws(() => resolveEmailSettings({ heloName: 'bad name' }), /heloName/);
  assert.throws(() => resolveEmailSettings({ smtpProbe: 'yes' }), /smtpProbe/);
});
