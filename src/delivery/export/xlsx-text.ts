/**
 * OOXML `ST_Xstring` escaping. XML cannot carry most control characters, and XML readers turn CR and
 * CRLF into LF, so Excel writes such characters as `_xHHHH_` (and a literal `_x0041_`-like run as
 * `_x005F_x0041_`). Doing the same keeps text exact through xlsx, and Excel shows the real characters.
 */

const UNSAFE = /[\x00-\x08\x0B\x0C\x0E-\x1F\r\uFFFE\uFFFF]|_x[0-9A-Fa-f]{4}_/;
const UNSAFE_G = /[\x00-\x08\x0B\x0C\x0E-\x1F\r\uFFFE\uFFFF]|_(?=x[0-9A-Fa-f]{4}_)/g;
const ESCAPED = /_x([0-9A-Fa-f]{4})_/g;

/**
 * Escapes text for an xlsx cell.
 * @example escapeXlsxText('a\r\nb') // 'a_x000D_\nb'
 */
export function escapeXlsxText(s: string): string {
  if (!UNSAFE.test(s)) return s;
  return s.replace(UNSAFE_G, (c) => `_x${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`);
}

/**
 * Reverse of escapeXlsxText (and of Excel's own escaping).
 * @example unescapeXlsxText('a_x000D_\nb') // 'a\r\nb'
 */
export function unescapeXlsxText(s: string): string {
  if (!s.includes('_x')) return s;
  return s.replace(ESCAPED, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
