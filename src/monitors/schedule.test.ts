import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nextRunAfter, scheduleProblem } from './schedule.ts';

test('schedules that cannot run are refused by name', () => {
  assert.match(scheduleProblem(undefined)!, /schedule must be an object/);
  assert.match(scheduleProblem({ every_s: 30 })!, /every_s must be a whole number of seconds from 60/);
  assert.match(scheduleProblem({ every_s: 60, cron: '* * * * *' })!, /exactly one of every_s/);
  assert.match(scheduleProblem({ cron: '0 9 * *' })!, /five fields/);
  assert.match(scheduleProblem({ cron: '0 25 * * *' })!, /is not valid/);
  assert.match(scheduleProblem({ cron: '0 9 * * *', time_zone: 'Mars/Olympus' })!, /IANA time zone/);
  assert.equal(scheduleProblem({ every_s: 86_400 }), undefined);
  assert.equal(scheduleProblem({ cron: '0 9 * * 1', time_zone: 'Europe/Athens' }), undefined);
});

test('an interval keeps its rhythm; missed due times collapse into the next', () => {
  const anchor = Date.UTC(2026, 10, 1);
  const day = 86_400_000;
  assert.equal(nextRunAfter({ every_s: 86_400, time_zone: 'UTC' }, anchor + 5_000, anchor), anchor + day, 'a late start does not shift the rhythm');
  assert.equal(nextRunAfter({ every_s: 86_400, time_zone: 'UTC' }, anchor + 3.5 * day, anchor), anchor + 4 * day, 'three days down: one run, then on rhythm');
});

test('cron in a time zone, across a daylight-saving change', () => {
  const s = { cron: '0 9 * * *', time_zone: 'Europe/Athens' };
  assert.equal(new Date(nextRunAfter(s, Date.UTC(2026, 9, 24, 12))).toISOString(), '2026-10-25T07:00:00.000Z', 'EEST ends that night: 09:00 is 07:00 UTC');
  assert.equal(new Date(nextRunAfter(s, Date.UTC(2026, 9, 23, 12))).toISOString(), '2026-10-24T06:00:00.000Z', '09:00 EEST');
});
