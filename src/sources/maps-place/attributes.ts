/**
 * Structured extras of a place node: the "about" attributes, review topics, popular times and the
 * rating histogram.
 */
import { arr, at, int, str } from '../_kit/positional.ts';
import type { PopularDay, PopularHour } from './record.ts';

/**
 * `[100][1]`: `[[group id, group name, [[attribute path, name, [flag, ...]]...]]...]`; flag 1 means
 * the place has it. Repeated names within a group are OR-ed (the source repeats some).
 *
 * @example
 *   about(node) // { 'Service options': { 'Outdoor seating': true, Delivery: true } }
 */
export function about(node: unknown): Record<string, Record<string, boolean>> | null {
  const groups = arr(node, 100, 1);
  if (!groups) return null;
  const out: Record<string, Record<string, boolean>> = {};
  let any = false;
  for (const g of groups) {
    const group = str(g, 1);
    const opts = arr(g, 2);
    if (!group || !opts) continue;
    const feats = (out[group] ??= {});
    for (const o of opts) {
      // Hot loop (hundreds of attributes per search page): plain indexing with type checks.
      if (!Array.isArray(o)) continue;
      const name = o[1];
      if (typeof name !== 'string' || name === '') continue;
      // [2][0] is the attribute's kind: 1 yes/no (answer at [2][1][0][0]), 2 one value
      // ("Free Wi-Fi"), 3 a list (card brands). A valued or listed attribute is present.
      const spec = o[2];
      const kind = Array.isArray(spec) ? spec[0] : null;
      const answer = kind === 1 ? at(spec, 1, 0, 0) : null;
      const has = kind === 1 ? answer === null || answer === 1 : kind === 2 || kind === 3;
      feats[name] = (feats[name] ?? false) || has;
      any = true;
    }
  }
  return any ? out : null;
}

/**
 * `[153][0]`: review topics `[[[kg id], topic, _, [..., mentions, ...]]...]` → topic names.
 *
 * @example
 *   reviewsTags(node) // ['meze', 'cypriot', ...]
 */
export function reviewsTags(node: unknown): string[] | null {
  const list = arr(node, 153, 0);
  if (!list) return null;
  const out: string[] = [];
  for (const t of list) {
    const name = str(t, 1);
    if (name && !out.includes(name)) out.push(name);
  }
  return out.length ? out : null;
}

const DAY_TEXT = ['', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/**
 * `[84][0]`: `[[day 1..7, [[hour, percentage, title, _, hour label, _, short label]...]]...]`.
 *
 * @example
 *   popularTimes(node) // [{ day: 7, day_text: 'Sunday', popular_times: [{ hour: 6, percentage: 0, title: '', time: '6a' }...] }...]
 */
export function popularTimes(node: unknown): PopularDay[] | null {
  const days = arr(node, 84, 0);
  if (!days) return null;
  const out: PopularDay[] = [];
  for (const d of days) {
    const day = int(d, 0);
    if (day === null || day < 1 || day > 7) continue;
    const hours: PopularHour[] = [];
    for (const h of arr(d, 1) ?? []) {
      const hour = int(h, 0);
      const pct = int(h, 1);
      if (hour === null || pct === null) continue;
      hours.push({ hour, percentage: pct, title: str(h, 2) ?? '', time: str(h, 6) ?? str(h, 4) ?? String(hour) });
    }
    out.push({ day, day_text: DAY_TEXT[day], popular_times: hours });
  }
  // The source starts at "today"; Monday first, like working_hours.
  out.sort((a, b) => a.day - b.day);
  return out.length ? out : null;
}

/**
 * `[175][3]`: review counts for 1..5 stars.
 *
 * @example
 *   reviewsPerScore(node) // { '1': 37, '2': 16, '3': 27, '4': 60, '5': 256 }
 */
export function reviewsPerScore(node: unknown): Record<'1' | '2' | '3' | '4' | '5', number> | null {
  const h = arr(node, 175, 3);
  if (!h || h.length < 5) return null;
  const v = [0, 1, 2, 3, 4].map((i) => int(h, i));
  if (v.some((x) => x === null || x < 0)) return null;
  return { '1': v[0]!, '2': v[1]!, '3': v[2]!, '4': v[3]!, '5': v[4]! };
}
