/**
 * When a monitor runs (issue 29): every N seconds, or a five-field cron expression in an IANA time
 * zone (croner reads it, daylight-saving changes included). Checked when the monitor is made, so a
 * bad schedule is a 422 naming it, never a monitor that silently never runs.
 *
 * @example nextRunAfter({ cron: '0 9 * * 1', time_zone: 'Europe/Athens' }, Date.parse('2026-11-27T00:00Z')) // Monday 07:00 UTC
 */
import { Cron } from 'croner';
import type { MonitorSchedule } from '../store/monitors/contract.ts';

/** Shorter intervals would make a monitor a scraping loop; one minute is the floor. */
export const MIN_EVERY_S = 60;
export const MAX_EVERY_S = 366 * 24 * 3600;

/** A problem with the schedule in words, or undefined when it can run. */
export function scheduleProblem(s: unknown): string | undefined {
  if (!s || typeof s !== 'object' || Array.isArray(s)) return 'schedule must be an object: {"every_s": 86400} or {"cron": "0 9 * * *", "time_zone": "Europe/Paris"}';
  const o = s as Record<string, unknown>;
  const tz = o.time_zone ?? 'UTC';
  if (typeof tz !== 'string' || !validZone(tz)) return `schedule.time_zone must be an IANA time zone such as "Europe/Paris", got ${JSON.stringify(tz).slice(0, 60)}`;
  if ((o.every_s === undefined) === (o.cron === undefined)) return 'schedule takes exactly one of every_s (seconds between runs) and cron (five fields)';
  if (o.every_s !== undefined) {
    if (typeof o.every_s !== 'number' || !Number.isInteger(o.every_s) || o.every_s < MIN_EVERY_S || o.every_s > MAX_EVERY_S) {
      return `schedule.every_s must be a whole number of seconds from ${MIN_EVERY_S} to ${MAX_EVERY_S}, got ${JSON.stringify(o.every_s).slice(0, 40)}`;
    }
    return undefined;
  }
  if (typeof o.cron !== 'string' || o.cron.trim().split(/\s+/).length !== 5) return `schedule.cron must be five fields (minute hour day month weekday), got ${JSON.stringify(o.cron).slice(0, 80)}`;
  try {
    if (!new Cron(o.cron, { timezone: tz }).nextRun()) return `schedule.cron ${JSON.stringify(o.cron)} never runs`;
  } catch (e) {
    return `schedule.cron ${JSON.stringify(o.cron)} is not valid: ${(e as Error).message}`;
  }
  return undefined;
}

function validZone(tz: string): boolean {
  try { new Intl.DateTimeFormat('en', { timeZone: tz }); return true; } catch { return false; }
}

/** The schedule as stored: the zone filled in. */
export function normaliseSchedule(s: Record<string, unknown>): MonitorSchedule {
  return s.every_s !== undefined ? { every_s: s.every_s as number, time_zone: (s.time_zone as string) ?? 'UTC' } : { cron: (s.cron as string).trim(), time_zone: (s.time_zone as string) ?? 'UTC' };
}

/**
 * The first run time strictly after `after` (Unix ms). For an interval it keeps the monitor's own
 * rhythm (`anchor` + k × every) rather than drifting with how late a run started; due times missed
 * while nothing ran collapse into the next one.
 */
export function nextRunAfter(s: MonitorSchedule, after: number, anchor = after): number {
  if (s.every_s !== undefined) {
    const step = s.every_s * 1000;
    const k = Math.max(1, Math.floor((after - anchor) / step) + 1);
    return anchor + k * step;
  }
  const d = new Cron(s.cron!, { timezone: s.time_zone }).nextRun(new Date(after));
  return d ? d.getTime() : Number.MAX_SAFE_INTEGER;
}
