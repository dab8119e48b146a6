import assert from 'node:assert/strict';
import { test } from 'node:test';
import { monitorList, secondsOf } from './monitors.ts';

test('the list says which monitors the service paused, and why, after the table', () => {
  const text = monitorList([
    { id: 'm1', name: 'dentists', endpoint: '/maps/reviews', status: 'paused', runs: 3, last_run: 1_764_000_000, next_run: null, paused_reason: 'its account cannot pay a run: top up, then resume it' },
    { id: 'm2', name: null, endpoint: '/maps/search', status: 'paused', runs: 1, last_run: null, next_run: null, paused_reason: null },
    { id: 'm3', endpoint: '/maps/search', status: 'active', runs: 0, next_run: 1_764_000_600 },
  ]);
  const lines = text.split('\n');
  assert.match(lines[1], /^m1\s+dentists\s+\/maps\/reviews\s+paused \(service\)\s+3\s/);
  assert.match(lines[2], /^m2\s+\/maps\/search\s+paused\s+1\b/, 'the user\'s own pause is a plain "paused"');
  assert.match(lines[3], /^m3\s+\/maps\/search\s+active\s+0\s/);
  assert.ok(text.endsWith('\nm1 paused by the service: its account cannot pay a run: top up, then resume it\n'), text);
  assert.ok(!/m2 paused by/.test(text));
  assert.ok(!monitorList([{ id: 'm3', endpoint: '/x', status: 'active', runs: 0 }]).includes('paused by'));
});

test('durations of --every', () => {
  assert.equal(secondsOf('1d'), 86_400);
  assert.equal(secondsOf('90'), 90);
  assert.throws(() => secondsOf('soon'), /--every takes a duration/);
});
