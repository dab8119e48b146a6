/**
 * Structured extras of a place node: the "about" attributes, review topics, popular times and the
 * rating histogram.
 */
import { asArr, asInt, asStr, at1, at2 } from './pos.ts';
import type { PopularDay, PopularHour } from './record.ts';

/**
 * `[100][1]`: `[[group id, group name, [[attribute path, name, [flag, ...]]...]]...]`; flag 1 means
 * the place has it. Repeated names within a group are OR-ed (the source repeats some).
 *
 * @example
 *   about(node) // { 'Service options': { 'Outdoor seating': true, Delivery: true } }
 */
/** Names that would reach Object.prototype (`__proto__`, `constructor`, `toString` ...) through
 *  plain assignment or lookup: a page may carry any text, so these take the own-property path. */
const INHERITED = new Set(Object.getOwnPropertyNames(Object.prototype));

function ownSlot<T>(o: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(o, key) ? o[key] : undefined;
}

function setOwn<T>(o: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

export function about(node: unknown): Record<string, Record<string, boolean>> | null {
  const groups = asArr(at2(node, 100, 1));
  if (!groups) return null;
  const out: Record<string, Record<string, boolean>> = {};
  let any = false;
  // Hot loop (hundreds of attributes per search page): plain indexing with type checks. Most of
  // its time is V8 turning each freshly parsed name into a property key, so every name is used as
  // a key once: a repeat is only looked up when it would not simply set `true`.
  for (let gi = 0; gi < groups.length; gi++) {
    const g = groups[gi];
    if (!Array.isArray(g)) continue;
    const group: unknown = g[1];
    const opts: unknown = g[2];
    if (typeof group !== 'string' || group === '' || !Array.isArray(opts)) continue;
    let feats: Record<string, boolean>;
    if (INHERITED.has(group)) {
      feats = ownSlot(out, group) ?? {};
      setOwn(out, group, feats);
    } else feats = (out[group] ??= {});
    for (let oi = 0; oi < opts.length; oi++) {
      const o: unknown = opts[oi];
      if (!Array.isArray(o)) continue;
      const name: unknown = o[1];
      if (typeof name !== 'string' || name === '') continue;
      // Repeated names within a group are OR-ed (the source repeats some).
      if (INHERITED.has(name)) {
        const held = attributeHeld(o[2]) || ownSlot(feats, name) === true;
        setOwn(feats, name, held);
      } else if (attributeHeld(o[2])) feats[name] = true;
      else if (feats[name] === undefined) feats[name] = false;
      any = true;
    }
  }
  return any ? out : null;
}

/**
 * An attribute's `[2]`: `[0]` is its kind: 1 yes/no (answer at `[1][0][0]`, absent means yes),
 * 2 one value ("Free Wi-Fi"), 3 a list (card brands). A valued or listed attribute is present.
 */
function attributeHeld(spec: unknown): boolean {
  if (!Array.isArray(spec)) return false;
  const kind: unknown = spec[0];
  if (kind === 1) {
    const answer = at2(spec[1], 0, 0);
    return answer === null || answer === 1;
  }
  return kind === 2 || kind === 3;
}

/**
 * `[153][0]`: review topics `[[[kg id], topic, _, [..., mentions, ...]]...]` → topic names.
 *
 * @example
 *   reviewsTags(node) // ['meze', 'cypriot', ...]
 */
export function reviewsTags(node: unknown): string[] | null {
  const list = asArr(at2(node, 153, 0));
  if (!list) return null;
  const out: string[] = [];
  for (const t of list) {
    const name = asStr(at1(t, 1));
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
  const days = asArr(at2(node, 84, 0));
  if (!days) return null;
  const out: PopularDay[] = [];
  for (const d of days) {
    const day = asInt(at1(d, 0));
    if (day === null || day < 1 || day > 7) continue;
    const hours: PopularHour[] = [];
    const list = asArr(at1(d, 1));
    if (list) {
      for (const h of list) {
        const hour = asInt(at1(h, 0));
        const pct = asInt(at1(h, 1));
        if (hour === null || pct === null) continue;
        hours.push({ hour, percentage: pct, title: asStr(at1(h, 2)) ?? '', time: asStr(at1(h, 6)) ?? asStr(at1(h, 4)) ?? String(hour) });
      }
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
  const h = asArr(at2(node, 175, 3));
  if (!h || h.length < 5) return null;
  const v1 = asInt(h[0]), v2 = asInt(h[1]), v3 = asInt(h[2]), v4 = asInt(h[3]), v5 = asInt(h[4]);
  if (v1 === null || v1 < 0 || v2 === null || v2 < 0 || v3 === null || v3 < 0 || v4 === null || v4 < 0 || v5 === null || v5 < 0) return null;
  return { '1': v1, '2': v2, '3': v3, '4': v4, '5': v5 };
}
