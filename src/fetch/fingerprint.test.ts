import assert from 'node:assert/strict';
import { test } from 'node:test';
import { browserOfUserAgent, fingerprintOf, generatorBrowsers, handshakeFor } from './fingerprint.ts';

const AVAILABLE = ['chrome_120', 'chrome_131', 'chrome_147', 'edge_134', 'edge_147', 'firefox_128', 'firefox_151', 'safari_18'];

test('browserOfUserAgent: Edge before Chrome (its UA names both), Firefox, OS', () => {
  assert.deepEqual(browserOfUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/147.0.0.0 Safari/537.36 Edg/147.0.0.0'), { browser: 'edge', version: 147, os: 'windows' });
  assert.deepEqual(browserOfUserAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'), { browser: 'chrome', version: 131, os: 'macos' });
  assert.deepEqual(browserOfUserAgent('Mozilla/5.0 (X11; Linux x86_64; rv:150.0) Gecko/20100101 Firefox/150.0'), { browser: 'firefox', version: 150, os: 'linux' });
  assert.equal(browserOfUserAgent('curl/8.0'), undefined);
});

test('handshakeFor: the same version, else the newest older one, else the oldest of the family; never another family', () => {
  assert.equal(handshakeFor('chrome', 147, AVAILABLE), 'chrome_147');
  assert.equal(handshakeFor('chrome', 146, AVAILABLE), 'chrome_131');
  assert.equal(handshakeFor('chrome', 100, AVAILABLE), 'chrome_120');
  assert.equal(handshakeFor('edge', 140, AVAILABLE), 'edge_134');
  assert.equal(handshakeFor('firefox', 150, AVAILABLE), 'firefox_128');
  assert.equal(handshakeFor('firefox', 150, ['chrome_147']), undefined);
});

test('fingerprintOf: none for the node profile or an unknown UA; generator browsers per profile', () => {
  const chrome = { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/147.0.0.0 Safari/537.36' };
  assert.deepEqual(fingerprintOf(chrome, 'browser', AVAILABLE), { browser: 'chrome', version: 147, os: 'windows', handshake: 'chrome_147' });
  assert.equal(fingerprintOf(chrome, 'node', AVAILABLE), undefined);
  assert.equal(fingerprintOf({ 'user-agent': 'x' }, 'chrome', AVAILABLE), undefined);
  assert.deepEqual(generatorBrowsers('chrome'), ['chrome']);
  assert.deepEqual(generatorBrowsers('firefox'), ['firefox']);
  assert.deepEqual(generatorBrowsers('browser'), ['chrome', 'firefox', 'edge']);
});
