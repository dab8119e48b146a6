/**
 * JSON.parse of UTF-8 bytes without the body's one large string (issue 37, session 21). A 191 KB map
 * search answer decoded is a 377 KB two-byte string: over V8's 128 KB regular object limit, so each
 * page's text gets pages mapped for it alone and returned after it dies, and on this project's
 * machines touching them (94 page faults) cost more than the JSON.parse that reads them: on a parse
 * thread 43 % of its CPU a page against 23 % for JSON.parse (docs/performance/service.md, session 21).
 * Here an array longer than SPLIT_BYTES is split into its elements, each parsed on its own from a
 * string of its bytes (a regular young-generation object), the array rebuilt from them; anything
 * else (an object, a string, a number, a short array) is parsed by JSON.parse from its bytes.
 *
 * The value is JSON.parse's of the whole text (element order, numbers, strings, escapes; objects are
 * never split, so `__proto__` keys and duplicate keys stay JSON.parse's); the bytes decode as
 * `toString('utf8')` decodes them, split only before or after an ASCII byte, never inside a
 * character. Invalid JSON throws a SyntaxError, as JSON.parse does, with another message. Arrays are
 * split at most SPLIT_DEPTH levels deep, so the bytes are scanned at most that many times.
 *
 * @example
 *   parseJsonBytes(Buffer.from('[1,"é",[2]]')) // [1, 'é', [2]]
 */

/** An array of more bytes than this is parsed element by element: 32 KB of UTF-8 is at most 64 KB
 *  as a string, well under V8's 128 KB regular object limit. */
export const SPLIT_BYTES = 32 * 1024;
/** Nested arrays split at most this deep (each level scans its bytes once). */
export const SPLIT_DEPTH = 6;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN = 0x5b; // [
const CLOSE = 0x5d; // ]
const OPEN_OBJECT = 0x7b; // {
const CLOSE_OBJECT = 0x7d; // }
const COMMA = 0x2c;

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/** The value of the JSON text in `bytes[start, end)` (UTF-8), as JSON.parse of its text. `split`:
 *  SPLIT_BYTES (tests split small texts). */
export function parseJsonBytes(bytes: Buffer, start = 0, end = bytes.length, split = SPLIT_BYTES): unknown {
  return parseRange(bytes, start, end, 0, split);
}

function parseRange(b: Buffer, s: number, e: number, depth: number, split: number): unknown {
  while (s < e && isSpace(b[s])) s++;
  while (e > s && isSpace(b[e - 1])) e--;
  if (e - s <= split || b[s] !== OPEN || depth >= SPLIT_DEPTH) return JSON.parse(b.toString('utf8', s, e));
  const out: unknown[] = [];
  let i = s + 1;
  while (isSpace(b[i])) i++;
  if (i === e - 1 && b[i] === CLOSE) return out;
  for (;;) {
    while (i < e && isSpace(b[i])) i++;
    const end = valueEnd(b, i, e - 1);
    out.push(parseRange(b, i, end, depth + 1, split));
    i = end;
    while (i < e && isSpace(b[i])) i++;
    if (i >= e - 1) break;
    if (b[i] !== COMMA) throw new SyntaxError(`Unexpected byte ${b[i]} in JSON at position ${i}`);
    i++;
  }
  if (i !== e - 1 || b[i] !== CLOSE) throw new SyntaxError(`Unterminated array in JSON at position ${s}`);
  return out;
}

/** Where the value starting at `i` ends (exclusive), looking no further than `e`: a string or an
 *  array or object to its closing byte, anything else to the next comma, bracket or space. What it
 *  spans is checked by the parse of it, not here. */
function valueEnd(b: Buffer, i: number, e: number): number {
  const c = b[i];
  if (c === QUOTE) return stringEnd(b, i, e);
  if (c === OPEN || c === OPEN_OBJECT) {
    let depth = 0;
    for (let j = i; j < e; j++) {
      const x = b[j];
      if (x === QUOTE) j = stringEnd(b, j, e) - 1;
      else if (x === OPEN || x === OPEN_OBJECT) depth++;
      else if ((x === CLOSE || x === CLOSE_OBJECT) && --depth === 0) return j + 1;
    }
    throw new SyntaxError(`Unterminated JSON at position ${i}`);
  }
  let j = i;
  while (j < e) {
    const x = b[j];
    if (x === COMMA || x === CLOSE || x === CLOSE_OBJECT || isSpace(x)) break;
    j++;
  }
  return j;
}

/** Past the closing quote of the string whose opening quote is at `i`. */
function stringEnd(b: Buffer, i: number, e: number): number {
  let j = i + 1;
  for (;;) {
    j = b.indexOf(QUOTE, j);
    if (j < 0 || j >= e) throw new SyntaxError(`Unterminated string in JSON at position ${i}`);
    let escapes = 0;
    for (let k = j - 1; b[k] === BACKSLASH; k--) escapes++;
    if (escapes % 2 === 0) return j + 1;
    j++;
  }
}

/**
 * Where the JSON of `bytes` starts after an anti-XSSI line (`)]}'`), as ./xssi.ts stripXssi reads
 * the text: past leading byte order marks, spaces and line ends, then past the line of the prefix;
 * `bytes.length` when the prefix has no line end (nothing to parse).
 *
 * @example xssiEnd(Buffer.from(")]}'\n[1]")) // 5
 */
export function xssiEnd(bytes: Buffer, start = 0): number {
  let i = start;
  for (;;) {
    if (bytes[i] === 0xef && bytes[i + 1] === 0xbb && bytes[i + 2] === 0xbf) i += 3;
    else if (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d) i++;
    else break;
  }
  if (bytes[i] === 0x29 && bytes[i + 1] === 0x5d && bytes[i + 2] === 0x7d && bytes[i + 3] === 0x27) {
    const nl = bytes.indexOf(0x0a, i);
    return nl < 0 ? bytes.length : nl + 1;
  }
  return i;
}
