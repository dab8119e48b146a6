/**
 * State a page embeds for its own scripts: `<script id="__NEXT_DATA__">`, other
 * `<script type="application/json">` blocks, globals assigned in inline scripts
 * (`var ytInitialData = {...};`, `window["ytInitialData"] = ...`, `window.__APOLLO_STATE__ = ...`),
 * Next.js app-router flight chunks (`self.__next_f.push([1,"..."])`), and Apollo's normalised cache.
 *
 * Pages are scanned as text (no tree is built): only the literal is cut out, with one pass that
 * respects string quoting, then parsed. JavaScript-only escapes inside strings (`\x3c`, `\'`,
 * `\v`) are turned into JSON before a second try, so `"<\/script>"` and `"\x3c/script>"` both work.
 *
 * @example
 *   nextData(html)?.props.pageProps
 *   assignedJson(html, 'ytInitialData')?.contents
 *   resolveRefs(apolloState(html), { __ref: 'Business:abc' })
 */
import { decodeEntities } from './html.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/**
 * End index (exclusive) of the bracketed literal starting at `start` (`[` or `{`), or -1 when the
 * text ends first. Brackets inside single- or double-quoted strings do not count.
 * @example literalEnd('{"d":"}"} tail', 0) // 9
 */
export function literalEnd(s: string, start: number): number {
  let depth = 0;
  let inStr = 0; // 0, or the quote char code
  for (let i = start; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (inStr) {
      if (c === 92 /* \ */) i++;
      else if (c === inStr) inStr = 0;
      continue;
    }
    if (c === 34 /* " */ || c === 39 /* ' */) inStr = c;
    else if (c === 91 /* [ */ || c === 123 /* { */) depth++;
    else if (c === 93 /* ] */ || c === 125 /* } */) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/**
 * JSON.parse that also accepts the JavaScript string escapes pages use to keep `</script>` out of a
 * literal (`\x3c`, `\u003c` already fine) and `\'`, `\v`; undefined when it still is not JSON.
 * @example parseLooseJson('{"h":"\\x3cb>"}') // { h: '<b>' }
 */
export function parseLooseJson(text: string): Json | undefined {
  try {
    return JSON.parse(text);
  } catch {
    /* try the JavaScript escapes below */
  }
  if (!/\\[x'v0]/.test(text)) return undefined;
  let out = '';
  let inStr = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (!inStr) {
      if (ch === '"') inStr = true;
      out += ch;
      continue;
    }
    if (ch === '"') inStr = false;
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const nx = text[i + 1];
    if (nx === 'x' && /^[0-9a-fA-F]{2}$/.test(text.slice(i + 2, i + 4))) {
      out += `\\u00${text.slice(i + 2, i + 4)}`;
      i += 3;
    } else if (nx === "'") {
      out += "'";
      i += 1;
    } else if (nx === 'v') {
      out += '\\u000b';
      i += 1;
    } else if (nx === '0' && !/[0-9]/.test(text[i + 2] ?? '')) {
      out += '\\u0000';
      i += 1;
    } else {
      out += ch + (nx ?? '');
      i += 1;
    }
  }
  try {
    return JSON.parse(out);
  } catch {
    return undefined;
  }
}

/** One `<script>` element of a page: its attributes (lower-case names, decoded values) and raw body. */
export interface ScriptBlock {
  attrs: Record<string, string>;
  body: string;
}

const SCRIPT_OPEN = /<script\b([^>]*)>/gi;
const ATTR = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

function attrsOf(src: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of src.matchAll(ATTR)) {
    const name = m[1].toLowerCase();
    if (!(name in out)) out[name] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? '');
  }
  return out;
}

/**
 * Every `<script>` of a page with its attributes and body, in page order. A body ends at the first
 * `</script` (as in a browser); an unclosed last script runs to the end of the text.
 * @example scripts(html).filter((s) => s.attrs.type === 'application/ld+json')
 */
export function scripts(html: string): ScriptBlock[] {
  const out: ScriptBlock[] = [];
  const lower = html.toLowerCase();
  SCRIPT_OPEN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = SCRIPT_OPEN.exec(html))) {
    const start = m.index + m[0].length;
    let end = lower.indexOf('</script', start);
    if (end < 0) end = html.length;
    out.push({ attrs: attrsOf(m[1]), body: html.slice(start, end) });
    SCRIPT_OPEN.lastIndex = end;
  }
  return out;
}

/** A predicate on a script block, or an id to match. */
export type ScriptMatch = string | ((s: ScriptBlock) => boolean);

function isJsonType(t: string | undefined): boolean {
  return !!t && /^application\/(?:[\w.+-]+\+)?json\b/i.test(t.trim());
}

/**
 * Parsed bodies of the `<script type="application/json">` blocks (any `+json` type too, e.g.
 * `application/ld+json`) that match `which` (an id or a predicate; all when omitted). A block whose
 * body is not JSON is skipped.
 * @example jsonScripts(html, (s) => s.attrs['data-target'] === 'react-app.embeddedData')
 */
export function jsonScripts(html: string, which?: ScriptMatch): Json[] {
  const pick = typeof which === 'string' ? (s: ScriptBlock) => s.attrs.id === which : which;
  const out: Json[] = [];
  for (const s of scripts(html)) {
    if (!isJsonType(s.attrs.type) && !(typeof which === 'string' && s.attrs.id === which)) continue;
    if (pick && !pick(s)) continue;
    const v = parseLooseJson(unwrapComment(s.body.trim()));
    if (v !== undefined) out.push(v);
  }
  return out;
}

/** Old pages wrap script bodies in `<!-- ... -->` or CDATA. */
function unwrapComment(body: string): string {
  const m = /^(?:<!--|<!\[CDATA\[)([\s\S]*?)(?:-->|\]\]>)$/.exec(body);
  return m ? m[1].trim() : body;
}

/** The first matching JSON script block, or undefined. */
export function jsonScript(html: string, which: ScriptMatch): Json | undefined {
  return jsonScripts(html, which)[0];
}

/**
 * The `__NEXT_DATA__` object of a Next.js (pages router) page, or undefined.
 * @example nextData(html)?.props?.pageProps
 */
export function nextData(html: string): Json | undefined {
  return jsonScript(html, '__NEXT_DATA__');
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The literal assigned to a global in an inline script: `var|let|const NAME =`, `window.NAME =`,
 * `window["NAME"] =`, `self.NAME =`, `globalThis.NAME =`, or a bare `NAME =` (also `NAME:` is
 * NOT matched: that is an object key). The first assignment whose value is a `{...}` or `[...]`
 * that parses wins; undefined when none does. `JSON.parse("...")` string forms are unwrapped.
 * @example assignedJson('<script>var ytInitialData = {"a":1};</script>', 'ytInitialData') // { a: 1 }
 */
export function assignedJson(html: string, name: string): Json | undefined {
  const n = escapeRe(name);
  const re = new RegExp(`(?:\\b(?:var|let|const)\\s+${n}|\\b(?:window|self|globalThis)\\s*(?:\\.\\s*${n}|\\[\\s*(["'])${n}\\1\\s*\\])|(?<![\\w$.])${n})\\s*=(?!=)\\s*`, 'g');
  let m: RegExpExecArray | null;
  while ((m = re.exec(html))) {
    const i = m.index + m[0].length;
    const v = literalAt(html, i);
    if (v !== undefined) return v;
  }
  return undefined;
}

/** The `{...}`/`[...]` literal (or `JSON.parse("...")`) starting at `i`, parsed; else undefined. */
function literalAt(text: string, i: number): Json | undefined {
  const c = text[i];
  if (c === '{' || c === '[') {
    const end = literalEnd(text, i);
    return end < 0 ? undefined : parseLooseJson(text.slice(i, end));
  }
  const jp = /^JSON\.parse\(\s*(["'])/.exec(text.slice(i, i + 16));
  if (!jp) return undefined;
  const q = jp[1];
  const s = i + jp[0].length;
  let e = s;
  let body = '';
  while (e < text.length && text[e] !== q) {
    if (text[e] === '\\') {
      body += text.slice(e, e + 2);
      e += 2;
    } else {
      body += text[e] === '"' ? '\\"' : text[e];
      e += 1;
    }
  }
  const str = parseLooseJson(`"${body}"`);
  return typeof str === 'string' ? parseLooseJson(str) : undefined;
}

/**
 * The text payload of a Next.js app-router page: the strings of every
 * `self.__next_f.push([1,"..."])`, joined in page order ('' when there is none). It is the React
 * flight stream (`id:JSON` lines); callers look inside it for the JSON they know.
 * @example nextFlight(html).includes('"reviews"')
 */
export function nextFlight(html: string): string {
  let out = '';
  for (const v of pushedLiterals(html, /self\.__next_f\.push\(\s*(?=\[)/g)) {
    if (Array.isArray(v) && v[0] === 1 && typeof v[1] === 'string') out += v[1];
  }
  return out;
}

/**
 * The parsed literal argument of every call `re` finds (`re`: global, its match ending where the
 * literal starts), in page order; arguments that do not parse are skipped.
 * @example pushedLiterals('x.push({"a":1})', /\.push\(\s*(?=\{)/g) // [{ a: 1 }]
 */
export function pushedLiterals(html: string, re: RegExp): unknown[] {
  const out: unknown[] = [];
  let m: RegExpExecArray | null;
  while ((m = re.exec(html))) {
    const i = m.index + m[0].length;
    const end = literalEnd(html, i);
    if (end < 0) break;
    const v = parseLooseJson(html.slice(i, end));
    if (v !== undefined) out.push(v);
    re.lastIndex = end;
  }
  return out;
}

/** Apollo's normalised cache: `"Type:id"` → object whose links are `{ __ref: "Type:id" }`. */
export type ApolloCache = Record<string, Json>;

/**
 * The Apollo cache a page ships (`window.__APOLLO_STATE__ = {...}`, or a JSON script with id
 * `__APOLLO_STATE__`); undefined when there is none.
 */
export function apolloState(html: string): ApolloCache | undefined {
  const v = assignedJson(html, '__APOLLO_STATE__') ?? jsonScript(html, '__APOLLO_STATE__');
  return v && typeof v === 'object' && !Array.isArray(v) ? v : undefined;
}

/**
 * A value with every `{ __ref }` replaced by the cache object it names (recursively, each object
 * resolved once per path so cycles stop: a reference back to an ancestor stays `{ __ref }`).
 * A dangling reference resolves to null.
 * @example resolveRefs(cache, cache.ROOT_QUERY).business.name
 */
export function resolveRefs(cache: ApolloCache, value: Json, maxDepth = 32): Json {
  const walk = (v: Json, seen: Set<string>, depth: number): Json => {
    if (depth > maxDepth || v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) return v.map((x) => walk(x, seen, depth + 1));
    if (typeof v.__ref === 'string' && Object.keys(v).length === 1) {
      if (seen.has(v.__ref)) return v;
      const target = cache[v.__ref];
      if (target === undefined) return null;
      return walk(target, new Set(seen).add(v.__ref), depth + 1);
    }
    const out: Record<string, Json> = {};
    for (const [k, x] of Object.entries(v)) out[k] = walk(x, seen, depth + 1);
    return out;
  };
  return walk(value, new Set(), 0);
}

/**
 * The cache objects of one `__typename` (keys like `Review:123`), in cache order.
 * @example apolloObjects(cache, 'Review').map((r) => r.text)
 */
export function apolloObjects(cache: ApolloCache, typename: string): Json[] {
  return Object.values(cache).filter((o) => o && typeof o === 'object' && o.__typename === typename);
}

/**
 * Every value under `root` that passes `test`, in document order, without looking inside a match
 * (e.g. every review object of a page state, however deep the page nests them).
 * @example findValues({ a: [{ id: 1, rating: 5 }] }, (v): v is any => !!v && typeof v === 'object' && 'rating' in v) // [{ id: 1, rating: 5 }]
 */
export function findValues<T>(root: unknown, test: (v: unknown) => v is T): T[] {
  const found: T[] = [];
  const seen = new Set<unknown>();
  const walk = (v: unknown): void => {
    if (typeof v !== 'object' || v === null || seen.has(v)) return;
    seen.add(v);
    if (test(v)) {
      found.push(v);
      return;
    }
    for (const x of Array.isArray(v) ? v : Object.values(v)) walk(x);
  };
  walk(root);
  return found;
}
