/**
 * What a request may weigh before anything reads it (docs/operations.md, "Request size caps").
 *
 * - The request target (path and query string): 2 MiB. 1000 queries of up to ~2,000 percent-encoded
 *   bytes each (a 650-character query in a non-Latin script, or a long map URL) fit; a longer target
 *   is 414 before authentication, so a client that needs more sends fewer queries per request.
 * - All header lines together: 64 KiB (browsers stop at 8 to 16 KiB per header), else 431.
 * - Node's parser is given the sum of both: past it, it stops reading and the answer is 431, since
 *   at that point it cannot tell which of the two overflowed.
 */
export const MAX_TARGET_BYTES = 2 * 1024 * 1024;
export const MAX_HEADER_BYTES = 64 * 1024;
export const MAX_HEAD_BYTES = MAX_TARGET_BYTES + MAX_HEADER_BYTES;

/** Bytes of the header lines as received (names, values, `: ` and CRLF). */
export function headerBytes(rawHeaders: string[]): number {
  let n = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) n += rawHeaders[i].length + rawHeaders[i + 1].length + 4;
  return n;
}

/**
 * The `apiKey` query parameter as the lenient reader would read it (`apiKey`, `apiKey[]`, any
 * percent-encoding of the name), found without parsing the rest: authentication comes before the
 * work of reading up to 1000 queries. Undefined when absent or unreadable.
 *
 * @example keyFromTarget('/a?query=x&%61piKey=trw_1') // 'trw_1'
 */
export function keyFromTarget(target: string): string | undefined {
  const q = target.indexOf('?');
  if (q < 0) return undefined;
  let at = q + 1;
  while (at < target.length) {
    let end = target.indexOf('&', at);
    if (end < 0) end = target.length;
    const eq = target.indexOf('=', at);
    if (eq > at && eq < end) {
      const name = decodePart(target.slice(at, eq));
      if (name === 'apiKey' || name === 'apiKey[]') {
        const value = decodePart(target.slice(eq + 1, end));
        if (value) return value;
      }
    }
    at = end + 1;
  }
  return undefined;
}

function decodePart(s: string): string | undefined {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}
