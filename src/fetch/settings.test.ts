import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_SETTINGS, executorSettingsFromEnv } from './settings.ts';

test('empty environment gives the defaults', () => {
  const s = executorSettingsFromEnv({});
  assert.deepEqual(s, { ...DEFAULT_SETTINGS, perHostBurst: 1 });
  assert.equal(s.chromiumPath, '/usr/bin/chromium');
  assert.equal(s.allowPrivateTargets, false);
});

test('every variable is read', () => {
  const s = executorSettingsFromEnv({
    PROXY_URLS: ' http://u:p@10.0.0.2:3128 , socks5://10.0.0.3:1080 ',
    PROXY_ROTATION: 'sticky',
    PER_HOST_CONCURRENCY: '4',
    PER_HOST_RPS: '2.5',
    FETCH_TIMEOUT_MS: '15000',
    MAX_RESPONSE_BYTES: '1000000',
    RETRIES: '0',
    RECORD_HAR: '/tmp/rec',
    REPLAY_HAR: '/tmp/rep.har',
    REPLAY_FALLBACK: 'path',
    CHROMIUM_PATH: '/opt/chromium',
    ALLOW_PRIVATE_TARGETS: 'true',
  });
  assert.deepEqual(s.proxyUrls, ['http://u:p@10.0.0.2:3128', 'socks5://10.0.0.3:1080']);
  assert.equal(s.proxyRotation, 'sticky');
  assert.equal(s.perHostConcurrency, 4);
  assert.equal(s.perHostRps, 2.5);
  assert.equal(s.perHostBurst, 3);
  assert.equal(s.timeoutMs, 15000);
  assert.equal(s.maxResponseBytes, 1_000_000);
  assert.equal(s.retries, 0);
  assert.equal(s.recordHar, '/tmp/rec');
  assert.equal(s.replayHar, '/tmp/rep.har');
  assert.equal(s.replayFallback, 'path');
  assert.equal(s.chromiumPath, '/opt/chromium');
  assert.equal(s.allowPrivateTargets, true);
});

test('ALLOW_PRIVATE_TARGETS: booleans or an allow list', () => {
  assert.equal(executorSettingsFromEnv({ ALLOW_PRIVATE_TARGETS: 'no' }).allowPrivateTargets, false);
  const s = executorSettingsFromEnv({ ALLOW_PRIVATE_TARGETS: '10.0.0.0/8, geocoder.internal' });
  assert.equal(s.allowPrivateTargets, false);
  assert.deepEqual(s.allowedTargets, ['10.0.0.0/8', 'geocoder.internal']);
});

test('malformed values are startup errors naming the variable (and hiding proxy passwords)', () => {
  assert.throws(() => executorSettingsFromEnv({ PER_HOST_CONCURRENCY: '0' }), /PER_HOST_CONCURRENCY="0" must be an integer >= 1/);
  assert.throws(() => executorSettingsFromEnv({ RETRIES: 'three' }), /RETRIES/);
  assert.throws(() => executorSettingsFromEnv({ PER_HOST_RPS: '-1' }), /PER_HOST_RPS/);
  assert.throws(() => executorSettingsFromEnv({ FETCH_TIMEOUT_MS: '1.5' }), /FETCH_TIMEOUT_MS/);
  assert.throws(() => executorSettingsFromEnv({ PROXY_ROTATION: 'random' }), /round_robin or sticky/);
  assert.throws(() => executorSettingsFromEnv({ PROXY_URLS: 'ftp://x:1' }), /scheme ftp: is not supported/);
  assert.throws(() => executorSettingsFromEnv({ PROXY_URLS: 'http://user:secret@' }), (e: Error) => !e.message.includes('secret') && /not a URL/.test(e.message));
  assert.throws(() => executorSettingsFromEnv({ REPLAY_FALLBACK: 'fuzzy' }), /REPLAY_FALLBACK/);
  assert.throws(() => executorSettingsFromEnv({ FETCH_PROFILE: 'safari' }), /FETCH_PROFILE="safari" must be one of browser, chrome, firefox, node/);
  assert.equal(executorSettingsFromEnv({ FETCH_PROFILE: 'firefox' }).fetchProfile, 'firefox');
  assert.equal(executorSettingsFromEnv({}).fetchProfile, 'browser');
});
