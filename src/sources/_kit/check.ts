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
