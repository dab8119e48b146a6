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
 * character. Invalid JSON throws a SyntaxError, as JSON.parse does, with another message. The bytes
 * are scanned once for the arrays' commas and ends (arrays nested in arrays only, at most SPLIT_DEPTH
 * deep), then each element's bytes are parsed.
 *
 * @example
 *   parseJsonBytes(Buffer.from('[1,"é",[2]]')) // [1, 'é', [2]]
 */

/** An array of more bytes than this is parsed element by element: 32 KB of UTF-8 is at most 64 KB
 *  as a string, well under V8's 128 KB regular object limit. */
export const SPLIT_BYTES = 32 * 1024;
/** Nested arrays split at most this deep. */
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
  let s = start;
  let e = end;
  while (s < e && isSpace(bytes[s])) s++;
  while (e > s && isSpace(bytes[e - 1])) e--;
  if (e - s <= split || bytes[s] !== OPEN) return JSON.parse(bytes.toString('utf8', s, e));
  const top = scan(bytes, s, e);
  if (top.end !== e) throw new SyntaxError(`Unexpected data after JSON at position ${top.end}`);
  return build(bytes, top, split);
}

/** An array of the text: where it starts and ends (exclusive), its commas, and the arrays among its
 *  elements, in order (none when it sits SPLIT_DEPTH deep: it is parsed whole). */
interface ArrayAt { start: number; end: number; commas: number[]; arrays: ArrayAt[] }

/** One pass over the array at `s`: every array nested in arrays only, down to SPLIT_DEPTH, with its
 *  commas and end; an object and what it holds are skipped (parsed whole). Strings are stepped over. */
function scan(b: Buffer, s: number, e: number): ArrayAt {
  const top: ArrayAt = { start: s, end: -1, commas: [], arrays: [] };
  // The array open at each depth, or null inside an object or past SPLIT_DEPTH.
  const open: (ArrayAt | null)[] = [top];
  let depth = 0;
  for (let j = s + 1; j < e; j++) {
    const x = b[j];
    if (x === QUOTE) {
      j++;
      while (j < e && b[j] !== QUOTE) j += b[j] === BACKSLASH ? 2 : 1;
      if (j >= e) break;
    } else if (x === COMMA) {
      open[depth]?.commas.push(j);
    } else if (x === OPEN || x === OPEN_OBJECT) {
      const parent = open[depth];
      const a = x === OPEN && parent && depth + 1 < SPLIT_DEPTH ? { start: j, end: -1, commas: [], arrays: [] } : null;
      if (a) parent!.arrays.push(a);
      open[++depth] = a;
    } else if (x === CLOSE || x === CLOSE_OBJECT) {
      const a = open[depth];
      if (a) a.end = j + 1;
      if (depth-- === 0) return top;
    }
  }
  throw new SyntaxError(`Unterminated JSON at position ${s}`);
}

/** The array `a` from its elements: an array among them of more than `split` bytes built the same way,
 *  anything else parsed by JSON.parse from its bytes. */
function build(b: Buffer, a: ArrayAt, split: number): unknown[] {
  if (b[a.end - 1] !== CLOSE) throw new SyntaxError(`Unexpected byte ${b[a.end - 1]} in JSON at position ${a.end - 1}`);
  const out: unknown[] = [];
  let next = 0;
  for (let k = 0; k <= a.commas.length; k++) {
    let s = k ? a.commas[k - 1] + 1 : a.start + 1;
    let e = k < a.commas.length ? a.commas[k] : a.end - 1;
    while (s < e && isSpace(b[s])) s++;
    while (e > s && isSpace(b[e - 1])) e--;
    if (s === e && k === 0 && !a.commas.length) return out; // []
    if (b[s] === OPEN && a.arrays[next]?.start === s) {
      const inner = a.arrays[next++];
      if (inner.end !== e) throw new SyntaxError(`Unexpected data in JSON at position ${inner.end}`);
      if (e - s > split) {
        out.push(build(b, inner, split));
        continue;
      }
    }
    out.push(JSON.parse(b.toString('utf8', s, e)));
  }
  return out;
}
