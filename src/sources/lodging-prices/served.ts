/**
 * `FullSearch` result nodes wrapped as the site serves them, for tests: the GraphQL answer, and a
 * search results page whose Apollo store holds them (the root query keyed by its arguments).
 */

/** The FullSearch GraphQL answer around result nodes. */
export const graphqlAnswer = (results: unknown[]) => JSON.stringify({ data: { searchQueries: { __typename: 'SearchQueries', search: { __typename: 'SearchQueryOutput', results, pagination: { nbResultsTotal: results.length } } } } });

/** A search results page whose Apollo store holds them under `key` (the search and its arguments). */
export const searchPage = (results: unknown[], key = 'search({"input":{"dates":{"checkin":"2026-03-20","checkout":"2026-03-22"}}})') =>
  `<!DOCTYPE html><html><body><div id="root"></div><script type="application/json" data-capla-store-data="apollo">${JSON.stringify({ ROOT_QUERY: { __typename: 'Query', searchQueries: { __typename: 'SearchQueries', [key]: { results } } } }).replace(/</g, '\\u003c')}</script></body></html>`;
