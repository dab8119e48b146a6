/**
 * Google-style JSON responses start with an anti-XSSI line (`)]}'`) that makes them invalid JSON
 * on purpose. Strip it when present; otherwise return the text unchanged.
 */
export function stripXssi(text: string): string {
  let i = 0;
  while (i < text.length && (text.charCodeAt(i) === 0xfeff || text[i] === ' ' || text[i] === '\n' || text[i] === '\r')) i++;
  if (text.startsWith(")]}'", i)) {
    const nl = text.indexOf('\n', i);
    return nl < 0 ? '' : text.slice(nl + 1);
  }
  return i ? text.slice(i) : text;
}

/**
 * Where the JSON of `bytes` starts after an anti-XSSI line (`)]}'`), as stripXssi reads
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

/** Parses a body that may carry the anti-XSSI prefix; returns undefined when it is not JSON. */
export function parseMaybeXssiJson(text: string): unknown {
  try {
    return JSON.parse(stripXssi(text));
  } catch {
    return undefined;
  }
}
