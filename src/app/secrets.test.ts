import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openSecret, sealSecret } from './secrets.ts';

test('sealed secrets open with their key only; unsealed ones read as they are', () => {
  const sealed = sealSecret('whsec_abc', 'k1');
  assert.match(sealed, /^enc1:/);
  assert.notEqual(sealSecret('whsec_abc', 'k1'), sealed, 'a fresh IV each time');
  assert.equal(openSecret(sealed, 'k1'), 'whsec_abc');
  assert.throws(() => openSecret(sealed, 'k2'), /cannot be opened/);
  assert.throws(() => openSecret(sealed, undefined), /SECRET_KEY is not set/);
  assert.equal(sealSecret('whsec_abc', undefined), 'whsec_abc');
  assert.equal(openSecret('whsec_legacy', 'k1'), 'whsec_legacy');
});
