/**
 * Pagination cursors handed to users (`next_page_cursor`, the `cursor` parameter): a small JSON
 * object, base64url-encoded so it survives a query string unescaped. Decoding is total: anything
 * that is not such a cursor gives null (the caller answers 422), never a throw.
 *
 * @example
 *   const c = encodeCursor({ token: 'CAES...', page: 3 }); // 'eyJ0b2tlbiI6IkNBRVMuLi4iLCJwYWdlIjozfQ'
 *   decodeCursor(c) // { token: 'CAES...', page: 3 }
 *   decodeCursor('%%%') // null
 */

/** What a cursor carries: adapter-defined JSON fields. */
export type CursorState = Record<string, unknown>;

/** A cursor's text for the state. */
export function encodeCursor(state: CursorState): string {
  return Buffer.from(JSON.stringify(state), 'utf8').toString('base64url');
}

/** The state of a cursor, or null when the text is not one (bad base64url, not JSON, not an object). */
export function decodeCursor(text: unknown): CursorState | null {
  if (typeof text !== 'string' || text === '' || text.length > 16384 || !/^[A-Za-z0-9_-]+={0,2}$/.test(text)) return null;
  try {
    const v: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as CursorState) : null;
  } catch {
    return null;
  }
}
