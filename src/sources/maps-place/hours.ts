/**
 * Opening hours. The node carries them twice:
 * - `[203][0]` (newer): `[day name, day number 1=Mon..7=Sun, [y,m,d], [[range text, [[h,m],[h,m]]]...], _, status]`
 * - `[34][1]` (older): `[day name, [range text...], _, _, 'YYYY-MM-DD', status, [[h,m,h,m]], _]`
 * status 2 means closed that day. Both lists start at "today", so days are re-ordered Monday first.
 * Day names stay in the page's language; a closed day reads `Closed` whatever the language, as 2.3 says.
 */
import { arr, at, str } from '../_kit/positional.ts';
import type { WeekHours } from './record.ts';

interface Day {
  name: string;
  num: number; // 1..7, or 99 when unknown (keeps source order after the known ones)
  value: string;
}

function joinRanges(ranges: string[], status: unknown): string {
  return status === 2 || ranges.length === 0 ? 'Closed' : ranges.join(',');
}

function weekdayOfIsoDate(s: unknown): number {
  if (typeof s !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(s)) return 99;
  const d = new Date(s + 'T00:00:00Z').getUTCDay();
  return Number.isNaN(d) ? 99 : d === 0 ? 7 : d;
}

/** Days of a `[203][0]`-style list (also the shape of each `[118][i][3][0]`). */
function daysNew(list: unknown[]): Day[] {
  const out: Day[] = [];
  for (const e of list) {
    const name = str(e, 0);
    if (!name) continue;
    const n = at(e, 1);
    const ranges: string[] = [];
    for (const r of arr(e, 3) ?? []) {
      const t = str(r, 0);
      if (t) ranges.push(t);
    }
    out.push({ name, num: typeof n === 'number' && n >= 1 && n <= 7 ? n : 99, value: joinRanges(ranges, at(e, 5)) });
  }
  return out;
}

function daysOld(list: unknown[]): Day[] {
  const out: Day[] = [];
  for (const e of list) {
    const name = str(e, 0);
    if (!name) continue;
    const ranges = (arr(e, 1) ?? []).filter((t): t is string => typeof t === 'string');
    out.push({ name, num: weekdayOfIsoDate(at(e, 4)), value: joinRanges(ranges, at(e, 5)) });
  }
  return out;
}

function toWeek(days: Day[]): WeekHours | null {
  if (days.length === 0) return null;
  const sorted = days.map((d, i) => ({ d, i })).sort((a, b) => a.d.num - b.d.num || a.i - b.i);
  const week: WeekHours = {};
  for (const { d } of sorted) if (!(d.name in week)) week[d.name] = d.value;
  return week;
}

/**
 * @example
 *   workingHours(node) // { Monday: '12:30–10 pm', ..., Sunday: '12:30–10 pm' }
 */
export function workingHours(node: unknown): WeekHours | null {
  const n = arr(node, 203, 0);
  if (n && n.length) return toWeek(daysNew(n));
  const o = arr(node, 34, 1);
  return o && o.length ? toWeek(daysOld(o)) : null;
}

/**
 * @example
 *   oldFormat({ Monday: '9 AM–5 PM', Tuesday: 'Closed' }) // 'Monday: 9 AM–5 PM | Tuesday: Closed'
 */
export function oldFormat(week: WeekHours | null): string | null {
  if (!week) return null;
  const parts = Object.entries(week).map(([d, v]) => `${d}: ${v}`);
  return parts.length ? parts.join(' | ') : null;
}

/**
 * Hours of services other than the main opening hours (`[118]`: delivery, takeout, brunch...).
 * The service label is lower-cased, as 2.3's examples (`delivery`, `takeout`) are.
 *
 * @example
 *   otherHours(node) // [{ delivery: { Monday: '12:30–10 pm', ... } }, { takeout: {...} }]
 */
export function otherHours(node: unknown): Array<Record<string, WeekHours>> | null {
  const list = arr(node, 118);
  if (!list) return null;
  const out: Array<Record<string, WeekHours>> = [];
  for (const e of list) {
    const label = str(e, 0);
    const days = arr(e, 3, 0);
    if (!label || !days) continue;
    const week = toWeek(daysNew(days));
    if (week) out.push({ [label.toLowerCase()]: week });
  }
  return out.length ? out : null;
}
