/**
 * What a request may weigh before anything reads it (docs/hardening.md, "Request size caps").
 *
 * - The request target (path and query string): `MAX_TARGET_BYTES`, 128 KiB by default (DEFAULT_TARGET_BYTES, src/config/settings.ts). 1000
 *   queries of up to ~130 percent-encoded bytes each fit; a longer target is 414 before
 *   authentication, so a client that needs more sends fewer queries per request. It was 2 MiB: Node's
 *   parser copies the whole target read so far on each packet that adds to it, so a 2 MiB target
 *   sent in 16 KiB pieces cost 57 ms of the API thread even on `/health` (issue 28); at 128 KiB a
 *   few milliseconds, and what is past the cap is never read.
 * - All header lines together: 64 KiB (browsers stop at 8 to 16 KiB per header), else 431.
 * - Node's parser is given the sum of both: past it, it stops reading and the answer is 431, since
 *   at that point it cannot tell which of the two overflowed.
 */
export const MAX_HEADER_BYTES = 64 * 1024;
/** What Node's parser reads of a request line and headers before it stops (maxHeaderSize). */
export const headLimit = (targetBytes: number) => targetBytes + MAX_HEADER_BYTES;

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
