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

/** Parses a body that may carry the anti-XSSI prefix; returns undefined when it is not JSON. */
export function parseMaybeXssiJson(text: string): unknown {
  try {
    return JSON.parse(stripXssi(text));
  } catch {
    return undefined;
  }
}
