/**
 * Example queries of the data endpoints: shown on the dashboard's Run page (a click fills them in)
 * and given as the `query` parameter's example in the OpenAPI document. Only queries of a form the
 * endpoint reads and that name something public; an endpoint whose queries are links to one site's
 * pages, with no public example we can vouch for, has none (its accepted forms are in `queryDoc`).
 *
 * @example QUERY_EXAMPLES['/reverse-geocoding'] // ['40.7580 -73.9855', '48.8584,2.2945']
 */
export const QUERY_EXAMPLES: Record<string, string[]> = {
  '/maps/search': ['coffee shops in Athens, Greece', 'bakeries in Lyon, France'],
  '/maps/reviews': ['Louvre Museum, Paris'],
  '/engine-places-by-domain': ['ikea.com'],
  '/engine-search-events': ['jazz concerts in Chicago'],
  '/engine-search-careers': ['data engineer in Berlin'],
  '/engine-maps-autocomplete': ['pizza in brookl'],
  '/reverse-geocoding': ['40.7580 -73.9855', '48.8584,2.2945'],
  '/geocoding': ['Palo Alto, CA', '10 Downing Street, London, United Kingdom'],
  '/bizdir-reviews': ['gary-danko-san-francisco'],
  '/forum-comments': ['https://www.reddit.com/r/IAmA/comments/z1c9z/'],
  '/network-posts': ['microsoft'],
  '/realestate-search': ['san francisco, ca'],
  '/videosite-videos': ['@Gronkh'],
  '/email-validator': ['info@example.com'],
  '/emails-finder': ['Jane Doe example.com'],
  '/directory-phones': ['+4915123456789', '+1 415 312 7128'],
};
