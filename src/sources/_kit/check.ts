/**
 * `checkQuery` from a query reader that throws `SourceError('invalid_query')`: the submit-time check
 * (a 422 naming the problem) and the plan then refuse a query for the same reason, in the same words.
 *
 * @example
 *   const adapter = { ..., checkQuery: checkByReading((q) => readHotelsQuery(q)) };
 *   adapter.checkQuery('https://example.com/') // 'link is not a hotel-search page ...'
 */
export function checkByReading(read: (query: string) => unknown): (query: string) => string | undefined {
  return (query) => {
    try {
      read(query);
      return undefined;
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  };
}

/**
 * `checkQuery` from a query reader that answers `{ error }` for a query it cannot read.
 *
 * @example checkByResult(readBizQuery)('https://example.com/') // the reader's own error text
 */
export function checkByResult(read: (query: string) => object): (query: string) => string | undefined {
  return (query) => {
    const r = read(query) as { error?: unknown };
    return 'error' in r ? String(r.error) : undefined;
  };
}
