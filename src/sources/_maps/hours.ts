/**
 * Opening hours. The node carries them twice:
 * - `[203][0]` (newer): `[day name, day number 1=Mon..7=Sun, [y,m,d], [[range text, [[h,m],[h,m]]]...], _, status]`
 * - `[34][1]` (older): `[day name, [range text...], _, _, 'YYYY-MM-DD', status, [[h,m,h,m]], _]`
 * status 2 means closed that day. Both lists start at "today", so days are re-ordered Monday first.
 * Day names stay in the page's language; a closed day reads `Closed` whatever the language, as 2.3 says.
 * A day that is neither closed (status 2) nor a list of ranges each with its text does not read
 * (a slot moved, a text emptied): the whole week is then null, never a day guessed `Closed`.
 */
import { asArr, asStr, at1, at2 } from './pos.ts';
import type { WeekHours } from './record.ts';

interface Day {
  name: string;
  num: number; // 1..7, or 99 when unknown (keeps source order after the known ones)
  value: string;
}

function weekdayOfIsoDate(s: unknown): number {
  if (typeof s !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(s)) return 99;
  const d = new Date(s + 'T00:00:00Z').getUTCDay();
  return Number.isNaN(d) ? 99 : d === 0 ? 7 : d;
}

/** Days of a `[203][0]`-style list (also the shape of each `[118][i][3][0]`); null when a day does not read. */
function daysNew(list: unknown[]): Day[] | null {
  const out: Day[] = [];
  for (let i = 0; i < list.length; i++) {
    const e: unknown = list[i];
    const name = asStr(at1(e, 0));
    if (!name) continue;
    const n = at1(e, 1);
    // The day's ranges joined by ',' as they are read: no list to build and join per day.
    let value = '';
    const ranges = asArr(at1(e, 3));
    if (ranges) {
      for (let k = 0; k < ranges.length; k++) {
        const t = asStr(at1(ranges[k], 0));
        if (!t) {
          value = '';
          break;
        }
        value = value === '' ? t : value + ',' + t;
      }
    }
    if (at1(e, 5) === 2) value = 'Closed';
    else if (value === '') return null;
    out.push({ name, num: typeof n === 'number' && n >= 1 && n <= 7 ? n : 99, value });
  }
  return out;
}

function daysOld(list: unknown[]): Day[] | null {
  const out: Day[] = [];
  for (const e of list) {
    const name = asStr(at1(e, 0));
    if (!name) continue;
    const ranges = asArr(at1(e, 1)) ?? [];
    const closed = at1(e, 5) === 2;
    if (!closed && (ranges.length === 0 || !ranges.every((t) => typeof t === 'string' && t !== ''))) return null;
    out.push({ name, num: weekdayOfIsoDate(at1(e, 4)), value: closed ? 'Closed' : ranges.join(',') });
  }
  return out;
}

/** Monday first (a stable insertion sort: a week has seven entries), a repeated day name kept once. */
function toWeek(days: Day[] | null): WeekHours | null {
  if (!days || days.length === 0) return null;
  for (let i = 1; i < days.length; i++) {
    const d = days[i];
    let j = i - 1;
    while (j >= 0 && days[j].num > d.num) {
      days[j + 1] = days[j];
      j--;
    }
    days[j + 1] = d;
  }
  const week: WeekHours = {};
  for (let i = 0; i < days.length; i++) {
    const d = days[i];
    if (!(d.name in week)) week[d.name] = d.value;
  }
  return week;
}

/**
 * @example
 *   workingHours(node) // { Monday: '12:30–10 pm', ..., Sunday: '12:30–10 pm' }
 */
export function workingHours(node: unknown): WeekHours | null {
  const n = asArr(at2(node, 203, 0));
  if (n && n.length) return toWeek(daysNew(n));
  const o = asArr(at2(node, 34, 1));
  return o && o.length ? toWeek(daysOld(o)) : null;
}

/**
 * @example
 *   oldFormat({ Monday: '9 AM–5 PM', Tuesday: 'Closed' }) // 'Monday: 9 AM–5 PM | Tuesday: Closed'
 */
export function oldFormat(week: WeekHours | null): string | null {
  if (!week) return null;
  const days = Object.keys(week);
  if (days.length === 0) return null;
  let out = '';
  for (let i = 0; i < days.length; i++) {
    const d = days[i];
    out += i === 0 ? `${d}: ${week[d]}` : ` | ${d}: ${week[d]}`;
  }
  return out;
}

/**
 * Hours of services other than the main opening hours (`[118]`: delivery, takeout, brunch...).
 * The service label is lower-cased, as 2.3's examples (`delivery`, `takeout`) are.
 *
 * @example
 *   otherHours(node) // [{ delivery: { Monday: '12:30–10 pm', ... } }, { takeout: {...} }]
 */
export function otherHours(node: unknown): Array<Record<string, WeekHours>> | null {
  const list = asArr(at1(node, 118));
  if (!list) return null;
  const out: Array<Record<string, WeekHours>> = [];
  for (const e of list) {
    const label = asStr(at1(e, 0));
    const days = asArr(at2(e, 3, 0));
    if (!label || !days) continue;
    const week = toWeek(daysNew(days));
    if (week) out.push({ [label.toLowerCase()]: week });
  }
  return out.length ? out : null;
}
