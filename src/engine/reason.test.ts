import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cleanMessage, headerSafe, reasonOf } from './reason.ts';
import { SourceError } from '../sources/_kit/errors.ts';

test('reasons carry the error type and a short message without credentials or keys', () => {
  assert.deepEqual(reasonOf(new SourceError('network', 'connect ECONNREFUSED via http://user:hunter2@proxy.example:8080')),
    { type: 'network', message: 'connect ECONNREFUSED via http://[redacted]@proxy.example:8080' });
  assert.deepEqual(reasonOf(new Error('boom')), { type: 'internal', message: 'boom' });
  assert.equal(cleanMessage('GET https://x.example/a?apiKey=trw_abc&q=1&token=zzz failed'), 'GET https://x.example/a?apiKey=[redacted]&q=1&token=[redacted] failed');
  assert.equal(cleanMessage('Authorization: Bearer abc.def.ghi\nnext line'), 'Authorization: Bearer [redacted] next line');
  assert.equal(cleanMessage('key trw_live_123456 leaked'), 'key [redacted] leaked');
  assert.equal(cleanMessage('x'.repeat(1000)).length, 300);
  assert.equal(headerSafe('network: café ✓'), 'network: caf? ?');
  assert.equal(headerSafe('y'.repeat(500)).length, 200);
});
