/**
 * Finding the place data inside a place page's HTML. The page's inline script assigns
 * `window.APP_INITIALIZATION_STATE=[...]`; its `[3][6]` (sometimes `[3][5]`) is a string holding the
 * place-details body, anti-XSSI prefix included. Only that literal is cut out and parsed (one scan
 * that respects string quoting), never the whole page.
 */

import { literalEnd } from '../_kit/embedded.ts';

const MARK = 'APP_INITIALIZATION_STATE';

/**
 * The parsed `APP_INITIALIZATION_STATE` array of a page, or undefined when the page has none that
 * parses as JSON.
 *
 * @example
 *   appInitState(html)?.[3]?.[6] // ")]}'\n[null,[],..."
 */
export function appInitState(html: string): unknown[] | undefined {
  let from = 0;
  for (;;) {
    const at = html.indexOf(MARK, from);
    if (at < 0) return undefined;
    from = at + MARK.length;
    let i = from;
    while (i < html.length && (html[i] === ' ' || html[i] === '\n' || html[i] === '\t')) i++;
    if (html[i] !== '=') continue;
    i++;
    while (i < html.length && (html[i] === ' ' || html[i] === '\n' || html[i] === '\t')) i++;
    if (html[i] !== '[') continue;
    const end = literalEnd(html, i);
    if (end < 0) return undefined;
    try {
      const v: unknown = JSON.parse(html.slice(i, end));
      if (Array.isArray(v)) return v;
    } catch {
      // A JS-only literal (single quotes, trailing commas): try the next assignment, if any.
    }
  }
}

/**
 * The XSSI-prefixed strings inside `state[3]` that may hold the place body, most likely first:
 * `[3][6]`, `[3][5]`, then any other string in `[3]` or one level below it.
 */
export function placeBodyCandidates(state: unknown[]): string[] {
  const s3 = state[3];
  if (!Array.isArray(s3)) return [];
  const out: string[] = [];
  const push = (v: unknown) => {
    if (typeof v === 'string' && v.startsWith(")]}'") && !out.includes(v)) out.push(v);
  };
  push(s3[6]);
  push(s3[5]);
  for (const v of s3) {
    if (typeof v === 'string') push(v);
    else if (Array.isArray(v)) for (const w of v) push(w);
  }
  return out;
}
