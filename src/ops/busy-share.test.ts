import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BusyShare, WINDOW_MS } from './busy-share.ts';

test('busy share: the last whole window\'s busy milliseconds over its length, sampled once a window', () => {
  let t = 0;
  let busy = 0;
  let reads = 0;
  const share = new BusyShare(() => (reads++, busy), () => t);
  assert.equal(share.now(), 0);
  t = WINDOW_MS / 2;
  busy = 100;
  assert.equal(share.now(), 0, 'within a window: the last share, nothing read');
  assert.equal(reads, 1);
  t = WINDOW_MS * 2;
  busy = WINDOW_MS;
  assert.equal(share.now(), 0.5);
  t += 10 * WINDOW_MS;
  assert.equal(share.now(), 0, 'an idle spell reads as idle');
});

test('busy share: by default the event loop\'s busy time, which a blocked loop adds to', () => {
  let t = 0;
  const share = new BusyShare(undefined, () => t);
  const until = performance.now() + 30;
  while (performance.now() < until);
  t = WINDOW_MS;
  assert.ok(share.now() > 0);
});
