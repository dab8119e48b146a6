import { ExportError } from './errors.ts';

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * Streaming reader of a top-level JSON array: yields each element as soon as its text is complete,
 * holding one element at a time (not the array). Element boundaries are found by tracking strings
 * and nesting; each element is then handed to JSON.parse, so value syntax is checked exactly.
 * Anything but an array, a truncated array or trailing text is `corrupt_file`.
 * @example for await (const v of parseJsonArray(['[{"a":', '1},2]'])) v // {a:1}, then 2
 */
export async function* parseJsonArray(chunks: AsyncIterable<string> | Iterable<string>): AsyncGenerator<unknown> {
  let started = false;
  let ended = false;
  let depth = 0; // nesting inside the current element
  let inString = false;
  let escaped = false;
  let collecting = false;
  let expectValue = true; // after '[' or ',': a value must come next
  let parts: string[] = [];
  let index = 0;

  const finish = (): unknown => {
    const text = parts.join('');
    parts = [];
    collecting = false;
    try {
      return JSON.parse(text);
    } catch (e) {
      throw new ExportError('corrupt_file', `json: element ${index} does not parse: ${(e as Error).message}`, { cause: e });
    }
  };

  let first = true;
  for await (let s of chunks) {
    if (first && s.length > 0) {
      first = false;
      if (s.charCodeAt(0) === 0xfeff) s = s.slice(1);
    }
    let i = 0;
    const n = s.length;
    while (i < n) {
      const c = s.charCodeAt(i);
      if (!started || ended) {
        if (WS.has(c)) {
          i++;
          continue;
        }
        if (ended) throw new ExportError('corrupt_file', 'json: text after the end of the array');
        if (c !== 0x5b) throw new ExportError('corrupt_file', 'json: the file is not a JSON array');
        started = true;
        i++;
        continue;
      }
      if (!collecting) {
        if (WS.has(c)) {
          i++;
          continue;
        }
        if (c === 0x5d && (!expectValue || index === 0)) {
          // ']' closes the array: right after '[' or after an element, never after a ','
          ended = true;
          i++;
          continue;
        }
        if (c === 0x2c && !expectValue) {
          expectValue = true;
          i++;
          continue;
        }
        if (!expectValue || c === 0x2c || c === 0x5d) {
          throw new ExportError('corrupt_file', `json: unexpected ${JSON.stringify(String.fromCharCode(c))} after element ${index}`);
        }
        // An element starts here; it is scanned below like the rest of one split across chunks.
        collecting = true;
        expectValue = false;
        depth = 0;
      }
      const start = i;
      i = scan(s, i);
      parts.push(s.slice(start, i));
      if (!collecting) {
        yield finish();
        index++;
      }
    }
  }
  if (!ended) throw new ExportError('corrupt_file', `json: the array is cut off after ${index} element(s)`);

  // Advances over element text from i; clears `collecting` when the element ends (at a top-level
  // ',' or ']' or whitespace after a scalar/closed container, which is left unconsumed).
  function scan(s: string, i: number): number {
    const n = s.length;
    while (i < n) {
      const c = s.charCodeAt(i);
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 0x5c) escaped = true;
        else if (c === 0x22) inString = false;
        i++;
        continue;
      }
      if (c === 0x22) {
        inString = true;
      } else if (c === 0x7b || c === 0x5b) {
        depth++;
      } else if (c === 0x7d || c === 0x5d) {
        if (depth === 0) {
          collecting = false; // the array's own ']'
          return i;
        }
        depth--;
        if (depth === 0) {
          collecting = false;
          return i + 1;
        }
      } else if (depth === 0 && (c === 0x2c || WS.has(c))) {
        collecting = false;
        return i;
      }
      i++;
    }
    return i;
  }
}
