import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isoUtc, relativeToUnix, responseTime, timeFields, toUnix } from './dates.ts';

const NOW = 1706918400; // 2024-02-03T00:00:00Z

test('absolute forms → Unix seconds', () => {
  assert.equal(toUnix(1706918400), NOW);
  assert.equal(toUnix(1706918400123), NOW);
  assert.equal(toUnix('1706918400'), NOW);
  assert.equal(toUnix('1706918400000'), NOW);
  assert.equal(toUnix('2024-02-03'), NOW);
  assert.equal(toUnix('2024-02-03T10:00:00'), NOW + 36000, 'no zone reads as UTC');
  assert.equal(toUnix('2024-02-03 10:00'), NOW + 36000);
  assert.equal(toUnix('2024-02-03T10:00:00+02:00'), NOW + 28800);
  assert.equal(toUnix('2024-02-03T10:00:00.250Z'), NOW + 36000);
  assert.equal(toUnix('Sat, 03 Feb 2024 10:00:00 GMT'), NOW + 36000);
  assert.equal(toUnix('Sat, 03 Feb 2024 10:00:00 +0100'), NOW + 32400);
  assert.equal(toUnix('Feb 3, 2024'), NOW);
  assert.equal(toUnix(new Date(NOW * 1000)), NOW);
});

test('relative phrases need the reference time', () => {
  assert.equal(toUnix('3 days ago', NOW), NOW - 3 * 86400);
  assert.equal(toUnix('3 days ago'), null);
  assert.equal(toUnix('an hour ago', NOW), NOW - 3600);
  assert.equal(toUnix('30+ days ago', NOW), NOW - 30 * 86400);
  assert.equal(toUnix('Edited 2 weeks ago', NOW), NOW - 2 * 604800);
  assert.equal(toUnix('a year ago', NOW), NOW - 31536000);
  assert.equal(toUnix('yesterday', NOW), NOW - 86400);
  assert.equal(toUnix('just now', NOW), NOW);
  assert.equal(toUnix('last week', NOW), NOW - 604800);
  assert.equal(relativeToUnix('5h ago', NOW), NOW - 5 * 3600);
  assert.equal(relativeToUnix('5 fortnights ago', NOW), null);
  assert.equal(relativeToUnix('vor 2 Tagen', NOW), null);
  assert.equal(toUnix('June', NOW), null);
});

test('garbage → null', () => {
  for (const bad of ['', 'soon', 'tomorrow-ish', '2024-13-45', NaN, -5, {}, null, undefined, 'Feb 30 and more text']) assert.equal(toUnix(bad, NOW), null, String(bad));
});

test('timeFields gives the record pair; isoUtc has no milliseconds', () => {
  assert.deepEqual(timeFields('review', '2024-02-03T10:00:00+02:00'), { review_timestamp: NOW + 28800, review_datetime_utc: '2024-02-03T08:00:00Z' });
  assert.deepEqual(timeFields('posted', 'n/a'), { posted_timestamp: null, posted_datetime_utc: null });
  assert.equal(isoUtc(0), '1970-01-01T00:00:00Z');
  assert.equal(isoUtc(null), null);
  assert.equal(responseTime({ Date: 'Sat, 03 Feb 2024 00:00:00 GMT' }), NOW);
  assert.equal(responseTime({}), null);
});
